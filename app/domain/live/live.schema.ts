import { z } from "zod/v4";

/**
 * Live editing of a PRD (docs/design/live-editing.md): request bodies and the
 * events of the stream, shared by the API contracts and the browser
 * (app/components/editor/live-provider.ts). Yjs updates and awareness updates
 * travel as standard base64 (with padding).
 */

/** The largest Yjs update one POST may carry, decoded (413 PAYLOAD_TOO_LARGE beyond). */
export const LIVE_MAX_UPDATE_BYTES = 512 * 1024;
/** The largest awareness update (cursor, selection, name) one presence POST may carry, decoded (a cursor takes a few hundred bytes). */
export const LIVE_MAX_AWARENESS_BYTES = 4 * 1024;
/**
 * The most base64 characters of a document's state one event carries: a
 * larger `sync` or `reset` is followed by `state` events with the rest, so
 * no event (and no socket's buffer) holds a whole large document.
 */
export const LIVE_STATE_PART_CHARS = 64 * 1024;
/** The Yjs XmlFragment of the document: TipTap's Collaboration extension default. */
export const LIVE_FRAGMENT = "default";

/** A client's own id for one editor tab: 8–64 URL-safe characters. */
export const liveClientId = z
  .string({ error: "clientId is required" })
  .regex(/^[A-Za-z0-9_-]{8,64}$/, "clientId must be 8–64 URL-safe characters (A–Z, a–z, 0–9, _ and -)");

const base64 = (field: string) =>
  z.string({ error: `${field} is required` }).regex(/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/, `${field} must be base64`);

export const liveStreamQuery = z.object({ clientId: liveClientId });

export const liveUpdateSchema = z.object({
  clientId: liveClientId,
  update: base64("update").min(1, "update is empty").describe("A Yjs update (Y.encodeStateAsUpdate or a doc's `update` event), base64; at most 512 KB decoded"),
});
export type LiveUpdateInput = z.infer<typeof liveUpdateSchema>;

export const LIVE_MODES = ["viewing", "editing"] as const;
export type LiveMode = (typeof LIVE_MODES)[number];

export const livePresenceSchema = z.object({
  clientId: liveClientId,
  mode: z.enum(LIVE_MODES, { error: `mode must be one of ${LIVE_MODES.join(", ")}` }),
  yClientId: z
    .number()
    .int()
    .min(0)
    .max(2 ** 32 - 1)
    .optional()
    .describe("The client's Yjs `doc.clientID`: the one awareness entry relayed"),
  awareness: base64("awareness")
    .optional()
    .describe("A y-protocols awareness update (encodeAwarenessUpdate) with the client's own state (cursor, selection); at most 16 KB decoded"),
});
export type LivePresenceInput = z.infer<typeof livePresenceSchema>;

// ---------------------------------------------------------------- what the stream and the answers carry

export const livePersonShape = z.object({
  userId: z.string(),
  name: z.string(),
  color: z.string().describe("A colour of a small palette, the same for a user everywhere"),
  mode: z.enum(LIVE_MODES).describe("`editing` when any of the user's tabs is editing"),
});
export type LivePerson = z.infer<typeof livePersonShape>;

export const liveClientShape = livePersonShape.extend({
  clientId: z.string(),
  yClientId: z.number().nullable(),
});
export type LiveClient = z.infer<typeof liveClientShape>;

const parts = z
  .number()
  .int()
  .min(1)
  .describe(
    "How many events carry the document's `state`: this one and, when more than 1, the `state` events right after it. Join their `state` strings (base64, in order) before applying",
  );

const epoch = z
  .string()
  .describe(
    "The document's identity: it changes only when the document is replaced (a reset). A client holding a document of another epoch replaces it with `state` instead of merging into it",
  );

export const liveSyncEvent = z.object({
  type: z.literal("sync"),
  state: z.string().describe("The whole document (Y.encodeStateAsUpdate, base64), or its first part (see `parts`)"),
  parts,
  epoch,
  versionId: z.string().nullable().describe("The PRD version the live document was last saved as or brought in line with"),
  canEdit: z.boolean().describe("Whether this user's updates are accepted"),
  people: z.array(livePersonShape),
  clients: z.array(liveClientShape),
  awareness: z.string().optional().describe("The awareness states of the clients here (one awareness update), base64"),
});
export const liveUpdateEvent = z.object({
  type: z.literal("update"),
  update: z.string().describe("A Yjs update, base64"),
  clientId: z.string().describe("The client that sent it (`server` for a save made elsewhere)"),
});
export const livePresenceEvent = z.object({
  type: z.literal("presence"),
  people: z.array(livePersonShape),
  clients: z.array(liveClientShape),
  awareness: z.string().optional().describe("An awareness update to apply (a client's cursor, or the removal of one that left), base64"),
});
export const liveVersionEvent = z.object({
  type: z.literal("version"),
  versionId: z.string().nullable(),
  versionNumber: z.number().nullable(),
});
export const liveResetEvent = z.object({
  type: z.literal("reset"),
  state: z.string().describe("The new whole document, base64, or its first part (see `parts`): replace the local one with it"),
  parts,
  epoch,
  versionId: z.string().nullable(),
});

export const liveStateEvent = z.object({
  type: z.literal("state"),
  part: z.number().int().min(2).describe("Which part of the preceding `sync` or `reset` this is (2 to its `parts`)"),
  state: z.string().describe("The next part of the document's state, base64"),
});

/** One `data:` payload of GET …/prd/live. */
export const liveEvent = z.discriminatedUnion("type", [liveSyncEvent, liveStateEvent, liveUpdateEvent, livePresenceEvent, liveVersionEvent, liveResetEvent]);
export type LiveEvent = z.infer<typeof liveEvent>;
