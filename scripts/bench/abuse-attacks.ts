/** The attacks of scripts/bench-abuse.ts: each runs until a deadline and says what the attacker got back. */
import http from "node:http";

export interface Attacker {
  base: string;
  cookie: string;
  /** A loopback receiver that accepts connections and never answers. */
  hungUrl: string;
  send: (method: string, pathname: string, body?: unknown) => Promise<Response>;
}

export interface Attack {
  name: string;
  prepare?: (a: Attacker) => Promise<void>;
  /** Runs until `until` (ms since the epoch); resolves with a summary of the answers. */
  run: (a: Attacker, until: number) => Promise<string>;
  cleanup?: (a: Attacker) => Promise<void>;
}

const MB = 1024 * 1024;

/** Counts of answers by status ("reset" for a connection cut before an answer). */
class Tally {
  counts = new Map<string, number>();
  add(key: string | number) {
    this.counts.set(String(key), (this.counts.get(String(key)) ?? 0) + 1);
  }
  toString() {
    return [...this.counts].map(([k, n]) => `${n}× ${k}`).join(", ") || "nothing answered";
  }
}

/** Streams a chunked body of `bytes` bytes (64 KB at a time, with backpressure) until the server answers or cuts it. */
function streamBody(a: Attacker, pathname: string, headers: Record<string, string>, bytes: number, chunk: Buffer) {
  return new Promise<string>((resolve) => {
    const url = new URL(pathname, a.base);
    const req = http.request(url, { method: "POST", headers: { ...headers, Origin: a.base, "Transfer-Encoding": "chunked" } });
    let sent = 0;
    let settled = false;
    const done = (result: string) => {
      if (settled) return;
      settled = true;
      req.destroy();
      resolve(result);
    };
    req.on("response", (res) => {
      res.resume();
      done(String(res.statusCode));
    });
    req.on("error", () => done("reset"));
    const pump = () => {
      while (!settled && sent < bytes) {
        sent += chunk.length;
        if (!req.write(chunk)) return void req.once("drain", pump);
      }
      if (!settled) req.end();
    };
    pump();
    setTimeout(() => done("no answer in 30 s"), 30_000).unref();
  });
}

async function repeat(until: number, parallel: number, once: () => Promise<string | number>) {
  const tally = new Tally();
  await Promise.all(
    Array.from({ length: parallel }, async () => {
      while (Date.now() < until) tally.add(await once().catch(() => "error"));
    }),
  );
  return tally.toString();
}

const formChunk = Buffer.from(`a=${"x".repeat(64 * 1024 - 2)}`);
const jsonChunk = Buffer.from('"x",'.repeat(16 * 1024));
const catastrophic = `${"(a+)+".repeat(50)}! ${"a".repeat(5_000)}`;

function bigPrd(chars: number) {
  const lines: string[] = ["# Big PRD", ""];
  let size = 0;
  for (let i = 0; size < chars; i++) {
    const line =
      i % 40 === 0
        ? `## Section ${i / 40}`
        : `- The system should probably handle request ${i} quickly and (about 2,600 bookings a year) TBD, as soon as possible etc.`;
    lines.push(line);
    size += line.length + 1;
  }
  return lines.join("\n");
}

let checkProject = "";
let liveProject = "";
let liveSockets: http.ClientRequest[] = [];
let mcpKey = "";
let mcpProject = "";

export const abuseAttacks: Attack[] = [
  {
    name: "150 MB form posts to /sign-in, anonymous, 4 at a time",
    run: (a, until) => repeat(until, 4, () => streamBody(a, "/sign-in", { "Content-Type": "application/x-www-form-urlencoded" }, 150 * MB, formChunk)),
  },
  {
    name: "50 MB chunked JSON to POST /api/projects, 4 at a time",
    run: (a, until) => repeat(until, 4, () => streamBody(a, "/api/projects", { "Content-Type": "application/json", Cookie: a.cookie }, 50 * MB, jsonChunk)),
  },
  {
    name: "PRD check of a 320 K-character PRD, saved and unsaved, 4 at a time",
    prepare: async (a) => {
      const created = await (await a.send("POST", "/api/projects", { name: "Check me" })).json();
      checkProject = created.project?.id ?? created.id;
      await a.send("PUT", `/api/projects/${checkProject}/prd`, { content: bigPrd(320_000) });
    },
    run: (a, until) => {
      let n = 0;
      return repeat(until, 4, async () =>
        ++n % 2
          ? (await a.send("GET", `/api/projects/${checkProject}/prd/check`)).status
          : (await a.send("POST", `/api/projects/${checkProject}/prd/check`, { content: `${bigPrd(320_000)}\n- variant ${n}` })).status,
      );
    },
  },
  {
    name: "catastrophic-backtracking input to the offline user-stories tool, 2 at a time",
    run: (a, until) =>
      repeat(until, 2, async () => {
        const res = await a.send("POST", "/api/ai/user-stories", {
          content: `Persona: ${catastrophic}\n\nRequirement: ${"a".repeat(20_000)}`,
          source: "requirements",
        });
        await res.text();
        return res.status;
      }),
  },
  {
    name: "100 unread live streams of a 2 M-character PRD",
    prepare: async (a) => {
      const created = await (await a.send("POST", "/api/projects", { name: "Live me" })).json();
      liveProject = created.project?.id ?? created.id;
      await a.send("PUT", `/api/projects/${liveProject}/prd`, { content: bigPrd(1_900_000) });
    },
    run: async (a, until) => {
      const tally = new Tally();
      const opened = Array.from(
        { length: 100 },
        (_, i) =>
          new Promise<void>((resolve) => {
            const req = http.get(new URL(`/api/projects/${liveProject}/prd/live?clientId=bench-tab-${String(i).padStart(4, "0")}`, a.base), {
              headers: { Cookie: a.cookie, Accept: "text/event-stream" },
            });
            liveSockets.push(req);
            req.on("response", (res) => {
              tally.add(res.statusCode ?? 0);
              // Never read: the server must bound what it buffers for this socket.
              res.pause();
              resolve();
            });
            req.on("error", () => {
              tally.add("reset");
              resolve();
            });
          }),
      );
      await Promise.race([Promise.all(opened), new Promise((r) => setTimeout(r, until - Date.now()))]);
      await new Promise((r) => setTimeout(r, Math.max(0, until - Date.now())));
      return `streams: ${tally}`;
    },
    cleanup: async () => {
      for (const req of liveSockets) req.destroy();
      liveSockets = [];
    },
  },
  {
    name: "MCP batches of 100 add_comment calls on a key limited to 2 requests a minute",
    prepare: async (a) => {
      const created = await (await a.send("POST", "/api/projects", { name: "Comment me" })).json();
      mcpProject = created.project?.id ?? created.id;
      const key = await (await a.send("POST", "/api/admin/rest-api-keys", { name: "bench", rateLimit: 2 })).json();
      mcpKey = key.apiKey?.key ?? "";
    },
    run: async (a, until) => {
      const batch = Array.from({ length: 100 }, (_, i) => ({
        jsonrpc: "2.0",
        id: i + 1,
        method: "tools/call",
        params: { name: "add_comment", arguments: { projectId: mcpProject, content: `spam ${i}` } },
      }));
      const statuses = await repeat(until, 1, async () => {
        const res = await fetch(`${a.base}/mcp`, {
          method: "POST",
          headers: {
            Authorization: `Bearer ${mcpKey}`,
            "Content-Type": "application/json",
            Accept: "application/json, text/event-stream",
            "MCP-Protocol-Version": "2025-06-18",
          },
          body: JSON.stringify(batch),
        });
        await res.text();
        return res.status;
      });
      const comments = await (await a.send("GET", `/api/projects/${mcpProject}/comments`)).json();
      return `${statuses}; comments made: ${comments.comments?.length ?? comments.total ?? "?"}`;
    },
  },
  {
    name: "6 webhooks to a receiver that never answers, a project created every 50 ms",
    prepare: async (a) => {
      for (let i = 0; i < 6; i++) {
        await a.send("POST", "/api/admin/webhooks", { name: `hung ${i}`, url: a.hungUrl, events: ["project.created"] });
      }
    },
    run: async (a, until) => {
      const tally = new Tally();
      let health = "";
      while (Date.now() < until) {
        tally.add((await a.send("POST", "/api/projects", { name: `Hook ${Date.now()}` })).status);
        await new Promise((r) => setTimeout(r, 50));
      }
      const res = await fetch(`${a.base}/api/health`);
      health = `${res.status} ${JSON.stringify((await res.json()).status)}`;
      return `${tally}; health then: ${health}`;
    },
  },
];
