import { z } from "zod/v4";
import { liveEvent, livePersonShape, livePresenceSchema, liveStreamQuery, liveUpdateSchema } from "~/domain/live/live.schema";
import { contract } from "../contract";

/** Real-time co-editing of a project's PRD (docs/design/live-editing.md, docs/projects.md "Live editing"). */

const tag = "Live PRD editing";
const params = z.object({ projectId: z.string() });
const primary = " Served by the LiteFS primary, which holds the live document in memory: on a replica the request is replayed there (`fly-replay`).";

export const liveStream = contract({
  method: "GET",
  path: "/api/projects/{projectId}/prd/live",
  tag,
  summary: "Follow the live PRD (SSE)",
  description: `For any reader of the project. \`clientId\` names this editor tab (8–64 URL-safe characters, chosen by the client; send the same one with its updates and presence). The first event is \`sync\` ({state, parts, epoch, versionId, canEdit, people, clients, awareness?}: apply \`state\` with Y.applyUpdate; the editor's document is the fragment \`default\`; if the local document has another \`epoch\`, replace it instead of merging). A state longer than 65,536 base64 characters comes in \`parts\` events: the \`sync\` (or \`reset\`) with the first, then \`state\` events ({part, state}) with the rest, in order; join them before applying. Then \`update\` ({update, clientId}: another client's Yjs update, or \`server\`'s for a save made elsewhere), \`presence\` ({people, clients, awareness?}), \`version\` ({versionId, versionNumber}: the live document was saved as, or brought in line with, that version) and \`reset\` ({state, parts, epoch, versionId}: the document was replaced by the saved PRD; replace the local one). The stream does not end by itself; comment lines keep it open; a client too slow to take its events (more than 5,000 or 16 MB waiting) is disconnected and syncs again when it reconnects. Opening the stream makes the client present (viewing) until it closes. A user may hold LIVE_MAX_STREAMS_PER_USER streams (8 by default, over all projects) and a project may have LIVE_MAX_STREAMS_PER_PROJECT (50): beyond, 429 RATE_LIMITED with Retry-After until one closes. The server holds LIVE_MAX_DOCS documents in at most LIVE_MEMORY_MB: when every one it holds is followed, opening another is 429 too.${primary}`,
  auth: "user",
  params,
  query: liveStreamQuery,
  responseType: "text/event-stream",
  response: liveEvent,
  // Opening a project's live document for the first time stores it; it lives in the primary's memory.
  writesOnGet: true,
  errors: ["NOT_FOUND", "RATE_LIMITED"],
});

export const postLiveUpdate = contract({
  method: "POST",
  path: "/api/projects/{projectId}/prd/live/updates",
  tag,
  summary: "Send a Yjs update of the live PRD",
  description: `For those who may edit the project (viewers and commenters: 403). \`update\` is a Yjs update (base64, at most 512 KB decoded and 20,000 items, structs plus delete ranges: 413 beyond, with \`limit\`); one that Yjs cannot read or apply, that changes anything but the editor's fragment \`default\` (another root type, or the server's map \`live\`), or that depends on changes the document does not have is 400 VALIDATION_ERROR and nothing is stored. The document holds at most 8 MB and 250,000 items (413 beyond). The answer comes after the update is stored: an acknowledged update survives a restart. Every other subscriber receives it as an \`update\` event; a pause in typing (LIVE_IDLE_MS) saves a PRD version.${primary}`,
  auth: "user",
  params,
  body: liveUpdateSchema,
  response: z.object({ accepted: z.literal(true) }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "NOT_FOUND", "PAYLOAD_TOO_LARGE"],
});

export const postLivePresence = contract({
  method: "POST",
  path: "/api/projects/{projectId}/prd/live/presence",
  tag,
  summary: "Say who is here (heartbeat, mode, cursor)",
  description: `For any reader of the project, for a client whose stream (GET …/prd/live with the same \`clientId\`) is open: 409 CONFLICT otherwise, so there is one presence entry per open stream at most. Send it at least every 30 s (a client not heard from for 30 s leaves). \`mode\` \`editing\` counts only for those who may edit (others are shown viewing). \`awareness\` (with \`yClientId\`, the client's Yjs clientID) is a y-protocols awareness update (at most 4 KB decoded: 413 beyond): only the entry of \`yClientId\` is kept, its \`user\` is replaced by the account's {name, color}, and it is relayed to the others in a \`presence\` event. Answers the people here, one per user with their strongest mode.${primary}`,
  auth: "user",
  // Being seen changes nothing stored: a read-only key may do it.
  scope: "read",
  params,
  body: livePresenceSchema,
  response: z.object({ people: z.array(livePersonShape) }),
  errors: ["VALIDATION_ERROR", "NOT_FOUND", "CONFLICT", "PAYLOAD_TOO_LARGE"],
});

export const postLiveVersion = contract({
  method: "POST",
  path: "/api/projects/{projectId}/prd/live/versions",
  tag,
  summary: "Save the live PRD as a version now",
  description: `For those who may edit the project. When the live document holds unsaved edits, they are saved now as a PRD version (as after a pause in typing: source \`live\`, as the last editor) and \`saved\` is true; otherwise nothing changes. \`versionId\` and \`versionNumber\` are the PRD's current version either way.${primary}`,
  auth: "user",
  params,
  response: z.object({ saved: z.boolean(), versionId: z.string().nullable(), versionNumber: z.number().nullable() }),
  errors: ["FORBIDDEN", "NOT_FOUND"],
});

export const postLiveReset = contract({
  method: "POST",
  path: "/api/projects/{projectId}/prd/live/reset",
  tag,
  summary: "Reset the live document from the last saved version",
  description: `For the project's owner (the member who created it) and the organization's owners and admins; others who may read the project: 403. Drops the stored live document (its Yjs state and updates) and ends its open streams: browsers reconnect and the next stream builds the document afresh from the PRD as saved (\`versionId\`, \`versionNumber\`), with a new epoch, so every editor replaces its copy. Live edits not yet saved as a version are discarded. For a live document that no longer opens or holds what no editor wrote.${primary}`,
  auth: "user",
  params,
  response: z.object({ reset: z.literal(true), versionId: z.string().nullable(), versionNumber: z.number().nullable() }),
  errors: ["FORBIDDEN", "NOT_FOUND"],
});
