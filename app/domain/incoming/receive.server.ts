import type { IncomingWebhooksTable } from "#db/schema";
import { db } from "~/db.server";
import { newId, nowIso, sha256 } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { AppError, notFound } from "../errors";
import { createComment } from "../collaboration/comments.server";
import { notifyUsers } from "../notifications/notify.server";
import { createProject } from "../projects/projects.server";
import { isSuperadmin } from "../users/users.server";

/**
 * Receiving an event on an incoming webhook: every request that reaches an
 * active endpoint is stored (incomingEvents) with the outcome of its action.
 */

type Endpoint = IncomingWebhooksTable;
type Payload = Record<string, unknown>;

/** The active endpoint for a raw token, or 404 (unknown and disabled look the same). */
export async function findActiveEndpoint(token: string): Promise<Endpoint> {
  const row = await db.selectFrom("incomingWebhooks").selectAll().where("tokenHash", "=", sha256(token)).executeTakeFirst();
  if (!row || row.isActive !== 1) throw notFound("Incoming webhook");
  return row;
}

async function store(
  endpoint: Endpoint,
  e: { payload: string; contentType: string; status: "processed" | "failed" | "ignored"; error?: string | null; result?: Payload | null },
) {
  const id = newId();
  const createdAt = nowIso();
  await db.transaction().execute(async (trx) => {
    await trx
      .insertInto("incomingEvents")
      .values({
        id,
        endpointId: endpoint.id,
        orgId: endpoint.orgId,
        payload: e.payload,
        contentType: e.contentType,
        status: e.status,
        error: e.error ?? null,
        result: e.result ? JSON.stringify(e.result) : null,
        createdAt,
      })
      .execute();
    await trx.updateTable("incomingWebhooks").set({ lastEventAt: createdAt }).where("id", "=", endpoint.id).execute();
  });
  return id;
}

/** Stores a request that was refused before its body could be read (e.g. over 1 MB). */
export function recordRefusedEvent(endpoint: Endpoint, contentType: string, error: string) {
  return store(endpoint, { payload: "", contentType, status: "failed", error });
}

function parsePayload(raw: string, contentType: string): Payload {
  const type = contentType.split(";")[0]!.trim().toLowerCase();
  if (raw.trim() === "") return {};
  if (type === "application/json" || type.endsWith("+json") || (type !== "application/x-www-form-urlencoded" && /^\s*[[{]/.test(raw))) {
    let parsed: unknown;
    try {
      parsed = JSON.parse(raw);
    } catch {
      throw new AppError("INVALID_JSON", 400, "The request body is not valid JSON");
    }
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new AppError("VALIDATION_ERROR", 400, "Send a JSON object");
    return parsed as Payload;
  }
  if (type === "application/x-www-form-urlencoded" || type === "") return Object.fromEntries(new URLSearchParams(raw));
  throw new AppError("UNSUPPORTED_MEDIA_TYPE", 415, `Content-Type ${type} is not supported; send application/json or application/x-www-form-urlencoded`);
}

const pick = (p: Payload, ...keys: string[]) => {
  for (const k of keys) if (typeof p[k] === "string" && (p[k] as string).trim()) return (p[k] as string).trim();
  return undefined;
};

/** The endpoint's creator, acting in the endpoint's organization with their current role. */
async function creatorActor(endpoint: Endpoint): Promise<Actor> {
  const row = endpoint.createdById
    ? await db
        .selectFrom("users as u")
        .innerJoin("memberships as m", (j) => j.onRef("m.userId", "=", "u.id").on("m.orgId", "=", endpoint.orgId))
        .innerJoin("organizations as o", "o.id", "m.orgId")
        .select(["u.id", "u.email", "u.name", "u.emailVerifiedAt", "u.timezone", "m.role", "o.name as orgName", "o.plan"])
        .where("u.id", "=", endpoint.createdById)
        .executeTakeFirst()
    : undefined;
  if (!row) throw new AppError("FORBIDDEN", 403, "The admin who created this endpoint no longer belongs to the organization");
  return {
    user: { id: row.id, email: row.email, name: row.name, emailVerified: row.emailVerifiedAt !== null, timezone: row.timezone },
    org: { id: endpoint.orgId, name: row.orgName, plan: row.plan },
    role: row.role,
    via: "apiKey",
    isSuperadmin: isSuperadmin(row),
    ip: null,
    userAgent: `incoming-webhook/${endpoint.id}`,
  };
}

async function runAction(endpoint: Endpoint, payload: Payload, eventRef: { endpointName: string }): Promise<Payload> {
  const actor = await creatorActor(endpoint);
  const text = pick(payload, "text", "body", "message", "description");
  if (endpoint.action === "create_project") {
    const name = pick(payload, "name", "title");
    if (!name) throw new AppError("VALIDATION_ERROR", 400, "The payload needs a `name` or `title`");
    const project = await createProject(actor, { name: name.slice(0, 200), description: (pick(payload, "description", "text") ?? "").slice(0, 5000) });
    return { projectId: project.id };
  }
  if (endpoint.action === "add_comment") {
    const { projectId } = JSON.parse(endpoint.config || "{}") as { projectId?: string };
    if (!projectId) throw new AppError("VALIDATION_ERROR", 400, "This endpoint has no project configured");
    const content = pick(payload, "text", "body", "message");
    if (!content) throw new AppError("VALIDATION_ERROR", 400, "The payload needs `text`, `body` or `message`");
    const { comment } = await createComment(actor, projectId, { content: content.slice(0, 10_000) });
    return { projectId, commentId: comment.id };
  }
  const members = await db.selectFrom("memberships").select("userId").where("orgId", "=", endpoint.orgId).execute();
  const title = pick(payload, "title", "name") ?? eventRef.endpointName;
  const ids = await db.transaction().execute((trx) =>
    notifyUsers(
      trx,
      members.map((m) => m.userId),
      {
        orgId: endpoint.orgId,
        type: "incoming",
        title: title.slice(0, 200),
        body: text?.slice(0, 2000) ?? null,
        link: pick(payload, "link")?.startsWith("/") ? pick(payload, "link") : null,
        data: { endpointId: endpoint.id },
      },
    ),
  );
  return { notified: ids.length };
}

export type ReceiveResult =
  | { kind: "challenge"; challenge: string; eventId: string }
  | { kind: "received"; eventId: string; status: "processed" | "failed"; error: string | null };

/**
 * Stores the event and runs the endpoint's action as its creator. A
 * `{type: "url_verification", challenge}` JSON body is answered with the
 * challenge (stored as `ignored`). A body that cannot be parsed is stored as
 * `failed` and the error is thrown (400/415). An action that fails is stored
 * as `failed` with its message and reported in the result, not thrown.
 */
export async function receiveIncomingEvent(endpoint: Endpoint, raw: string, contentType: string): Promise<ReceiveResult> {
  let payload: Payload;
  try {
    payload = parsePayload(raw, contentType);
  } catch (error) {
    await store(endpoint, { payload: raw, contentType, status: "failed", error: (error as Error).message });
    throw error;
  }
  if (payload.type === "url_verification" && typeof payload.challenge === "string") {
    const eventId = await store(endpoint, { payload: raw, contentType, status: "ignored", error: "url_verification handshake" });
    return { kind: "challenge", challenge: payload.challenge, eventId };
  }
  try {
    const result = await runAction(endpoint, payload, { endpointName: endpoint.name });
    const eventId = await store(endpoint, { payload: raw, contentType, status: "processed", result });
    return { kind: "received", eventId, status: "processed", error: null };
  } catch (error) {
    const known = error instanceof AppError || (error instanceof Error && error.name === "ZodError");
    const message = known ? (error as Error).message : "Internal error while processing the event";
    const eventId = await store(endpoint, { payload: raw, contentType, status: "failed", error: message });
    if (!known) throw error;
    return { kind: "received", eventId, status: "failed", error: message };
  }
}
