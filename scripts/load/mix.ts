/**
 * The request mix of `npm run load` (scripts/load.ts): one autocannon
 * instance per operation, each with its own keep-alive connections, all
 * running at once against the same server. Every request authenticates with
 * an API key of one of the organization's editors, rotating per request.
 *
 * Writes cannot conflict: a PRD update leases a project from a pool shared by
 * the update connections (no two updates of one project are ever in flight),
 * sends the PRD's ETag in If-Match and keeps the ETag the server returns.
 * A 409 would therefore be a real lost-update bug, and is counted as an error.
 */
import autocannon from "autocannon";

/** The parts of autocannon's options and result that the mix uses (types/autocannon.d.ts declares fewer). */
type Context = Record<string, any>;
interface Req {
  method?: string;
  path: string;
  headers?: Record<string, string>;
  body?: string;
  setupRequest?: (req: Req, context: Context) => Req;
  onResponse?: (status: number, body: string, context: Context, headers: Record<string, string>) => void;
}
interface Result {
  requests: { average: number; total: number };
  latency: { p50: number; p99: number; average: number; max: number };
  non2xx: number;
  errors: number;
  timeouts: number;
  statusCodeStats: Record<string, { count: number }>;
}
const cannon = autocannon as unknown as (options: { url: string; connections: number; duration: number; timeout?: number; requests: Req[] }) => Promise<Result>;

export interface MixInput {
  base: string;
  /** `Authorization` header values, one per editor. */
  keys: string[];
  /** Every project of the organization. */
  projects: string[];
  /** Projects with a PRD that only readers touch. */
  prdProjects: string[];
  /** Projects with a PRD reserved for the update operation, with their current version id. */
  updatePool: { id: string; versionId: string; content: string; auth: string }[];
  searchTerms: string[];
}

export interface Operation {
  name: string;
  label: string;
  connections: number;
  request: Req;
}

export interface RouteResult {
  name: string;
  label: string;
  connections: number;
  total: number;
  rps: number;
  p50: number;
  p99: number;
  max: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  statuses: Record<string, number>;
}

/** Deterministic rotation: the n-th call returns items[n % length]. */
const rotate = <T>(items: readonly T[]) => {
  let n = 0;
  return () => items[n++ % items.length]!;
};

export function operations(input: MixInput, connections: Record<string, number>): Operation[] {
  const key = rotate(input.keys);
  const json = () => ({ Authorization: key(), "Content-Type": "application/json" });

  const listQueries = rotate([
    "limit=20",
    "limit=20",
    "limit=20&offset=20",
    "limit=20&status=IN_REVIEW",
    "limit=20&sortBy=priority",
    "limit=20&assignedToMe=true",
    "limit=20&sortBy=name&sortOrder=asc",
    "limit=20&search=checkout",
  ]);
  const anyProject = rotate(shuffle(input.projects));
  const prdProject = rotate(shuffle(input.prdProjects));
  const commentProject = rotate(shuffle(input.projects));
  const term = rotate(input.searchTerms);

  // The update pool: leased per request, returned with the new ETag.
  const free = [...input.updatePool];
  let edits = 0;

  const ops: Operation[] = [
    {
      name: "list",
      label: "`GET /api/projects?limit=20` (+ filters, sorts, page 2)",
      connections: connections.list!,
      request: { path: "/api/projects", setupRequest: (r) => ({ ...r, headers: { Authorization: key() }, path: `/api/projects?${listQueries()}` }) },
    },
    {
      name: "project",
      label: "`GET /api/projects/{id}`",
      connections: connections.project!,
      request: { path: "/", setupRequest: (r) => ({ ...r, headers: { Authorization: key() }, path: `/api/projects/${anyProject()}` }) },
    },
    {
      name: "prd",
      label: "`GET /api/projects/{id}/prd`",
      connections: connections.prd!,
      request: { path: "/", setupRequest: (r) => ({ ...r, headers: { Authorization: key() }, path: `/api/projects/${prdProject()}/prd` }) },
    },
    {
      name: "update",
      label: "`PATCH /api/projects/{id}/prd` (If-Match)",
      connections: connections.update!,
      request: {
        method: "PATCH",
        path: "/",
        setupRequest: (r, ctx) => {
          const lease = free.shift();
          if (!lease) throw new Error("update pool exhausted: make it larger than the update connections");
          ctx.lease = lease;
          edits += 1;
          return {
            ...r,
            method: "PATCH",
            path: `/api/projects/${lease.id}/prd`,
            headers: { Authorization: lease.auth, "Content-Type": "application/json", "If-Match": `"${lease.versionId}"` },
            body: JSON.stringify({ content: `${lease.content}\n\n## Load note ${edits}\n\nEdited under load at ${new Date().toISOString()}.` }),
          };
        },
        onResponse: (status, _body, ctx, headers) => {
          const lease = ctx.lease as (typeof free)[number] | undefined;
          if (!lease) return;
          const etag = headers.etag ?? headers.ETag;
          if (status === 200 && etag) lease.versionId = etag.replace(/^W\//, "").replace(/"/g, "");
          free.push(lease);
        },
      },
    },
    {
      name: "comment",
      label: "`POST /api/projects/{id}/comments`",
      connections: connections.comment!,
      request: {
        method: "POST",
        path: "/",
        setupRequest: (r) => ({
          ...r,
          method: "POST",
          path: `/api/projects/${commentProject()}/comments`,
          headers: json(),
          body: JSON.stringify({ content: "Can we confirm the rollout plan with support before the release? The acceptance criteria look right to me." }),
        }),
      },
    },
    {
      name: "search",
      label: "`GET /api/search?q=…&limit=20` (keyword)",
      connections: connections.search!,
      request: { path: "/", setupRequest: (r) => ({ ...r, headers: { Authorization: key() }, path: `/api/search?q=${encodeURIComponent(term())}&limit=20` }) },
    },
  ];
  return ops;
}

export async function runOperation(base: string, op: Operation, seconds: number): Promise<RouteResult> {
  const r = await cannon({ url: base, connections: op.connections, duration: seconds, timeout: 30, requests: [op.request] });
  const statuses = Object.fromEntries(Object.entries(r.statusCodeStats ?? {}).map(([code, s]) => [code, s.count]));
  return {
    name: op.name,
    label: op.label,
    connections: op.connections,
    total: r.requests.total,
    rps: r.requests.average,
    p50: r.latency.p50,
    p99: r.latency.p99,
    max: r.latency.max,
    non2xx: r.non2xx,
    errors: r.errors,
    timeouts: r.timeouts,
    statuses,
  };
}

/** A fixed shuffle (so that consecutive requests hit unrelated rows, the same way every run). */
function shuffle<T>(items: readonly T[]) {
  const out = [...items];
  let seed = 7;
  for (let i = out.length - 1; i > 0; i--) {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    const j = seed % (i + 1);
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}
