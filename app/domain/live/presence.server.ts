import * as decoding from "lib0/decoding";
import * as encoding from "lib0/encoding";
import { AppError, validationError } from "../errors";
import type { LiveClient, LiveMode, LivePerson } from "./live.schema";

/**
 * Who is on a live document: per client (one editor tab) the user, their
 * colour, viewing or editing, and the awareness state (cursor, selection)
 * the server relays. Entries are keyed by user and client id, so nobody can
 * overwrite another user's entry by sending their client id; they expire
 * 30 s after their last heartbeat or when their stream closes.
 */

export const PRESENCE_TTL_MS = 30_000;

/** Distinct on light and dark backgrounds; a user keeps one everywhere. */
const PALETTE = ["#e8590c", "#1c7ed6", "#2f9e44", "#ae3ec9", "#f08c00", "#0c8599", "#e03131", "#5f3dc4", "#66a80f", "#c2255c"];

export function colorFor(userId: string) {
  let hash = 0;
  for (let i = 0; i < userId.length; i++) hash = (hash * 31 + userId.charCodeAt(i)) >>> 0;
  return PALETTE[hash % PALETTE.length]!;
}

/** One client's awareness state as the server relays it: its Yjs client id, clock and state JSON (with the server's `user`). */
export interface AwarenessEntry {
  clientID: number;
  clock: number;
  /** JSON text; `null` once the client left. */
  state: string;
}

interface Entry {
  userId: string;
  name: string;
  color: string;
  clientId: string;
  mode: LiveMode;
  lastSeen: number;
  yClientId: number | null;
  awareness: AwarenessEntry | null;
}

const keyOf = (userId: string, clientId: string) => `${userId}\u0000${clientId}`;

export class Presence {
  private entries = new Map<string, Entry>();

  get size() {
    return this.entries.size;
  }

  /**
   * Records a heartbeat. Returns whether others should hear about it: a new
   * client, a changed mode, or a new awareness state.
   */
  upsert(
    input: { userId: string; name: string; clientId: string; mode: LiveMode; yClientId?: number; awareness?: AwarenessEntry | null; keepMode?: boolean },
    now = Date.now(),
  ) {
    const key = keyOf(input.userId, input.clientId);
    const entry = this.entries.get(key);
    const yClientId = input.yClientId ?? entry?.yClientId ?? null;
    // A Yjs client id belongs to the first user who sent it: nobody moves another user's cursor.
    const claimed = yClientId !== null && [...this.entries.values()].some((e) => e.userId !== input.userId && e.yClientId === yClientId);
    const awareness = claimed ? null : (input.awareness ?? null);
    if (!entry) {
      this.entries.set(key, {
        userId: input.userId,
        name: input.name,
        color: colorFor(input.userId),
        clientId: input.clientId,
        mode: input.mode,
        lastSeen: now,
        yClientId: claimed ? null : yClientId,
        awareness,
      });
      return { changed: true, awareness };
    }
    const mode = input.keepMode ? entry.mode : input.mode;
    const modeChanged = entry.mode !== mode;
    entry.mode = mode;
    entry.name = input.name;
    entry.lastSeen = now;
    if (!claimed) entry.yClientId = yClientId;
    const newState =
      awareness !== null && (entry.awareness === null || entry.awareness.clientID !== awareness.clientID || awareness.clock > entry.awareness.clock);
    if (newState) entry.awareness = awareness;
    return { changed: modeChanged || newState, awareness: newState ? awareness : null };
  }

  /** Removes a client (its stream closed); returns the awareness update that clears its cursor, if it had one. */
  remove(userId: string, clientId: string): AwarenessEntry | null | undefined {
    const key = keyOf(userId, clientId);
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    return entry.awareness ? { clientID: entry.awareness.clientID, clock: entry.awareness.clock + 1, state: "null" } : null;
  }

  /** Removes the clients not heard from for PRESENCE_TTL_MS; returns the awareness removals (empty list: nobody left). */
  expire(now = Date.now()) {
    const removed: AwarenessEntry[] = [];
    let any = false;
    for (const [key, entry] of this.entries) {
      if (now - entry.lastSeen < PRESENCE_TTL_MS) continue;
      any = true;
      this.entries.delete(key);
      if (entry.awareness) removed.push({ clientID: entry.awareness.clientID, clock: entry.awareness.clock + 1, state: "null" });
    }
    return { any, removed };
  }

  /** One entry per user, with the strongest mode of their clients, by name. */
  people(): LivePerson[] {
    const byUser = new Map<string, LivePerson>();
    for (const e of this.entries.values()) {
      const known = byUser.get(e.userId);
      if (!known) byUser.set(e.userId, { userId: e.userId, name: e.name, color: e.color, mode: e.mode });
      else if (e.mode === "editing") known.mode = "editing";
    }
    return [...byUser.values()].sort((a, b) => a.name.localeCompare(b.name) || a.userId.localeCompare(b.userId));
  }

  clients(): LiveClient[] {
    return [...this.entries.values()].map((e) => ({
      userId: e.userId,
      name: e.name,
      color: e.color,
      mode: e.mode,
      clientId: e.clientId,
      yClientId: e.yClientId,
    }));
  }

  /** Every awareness state held (for a client that just connected). */
  awareness(): AwarenessEntry[] {
    return [...this.entries.values()].flatMap((e) => (e.awareness ? [e.awareness] : []));
  }
}

/**
 * Reads a y-protocols awareness update (encodeAwarenessUpdate) and keeps only
 * the sender's own entry (`yClientId`), with its `user` field replaced by the
 * server's {name, color}: whatever the client wrote there, others see the
 * account's name. Returns null when the update holds no entry for that
 * client. Anything that is not an awareness update is 400 VALIDATION_ERROR.
 */
export function sanitizeAwareness(update: Uint8Array, yClientId: number, user: { name: string; color: string }): AwarenessEntry | null {
  const bad = () => validationError("awareness", "awareness must be a y-protocols awareness update");
  let own: AwarenessEntry | null = null;
  try {
    const decoder = decoding.createDecoder(update);
    const count = decoding.readVarUint(decoder);
    if (count > 64) throw bad();
    for (let i = 0; i < count; i++) {
      const clientID = decoding.readVarUint(decoder);
      const clock = decoding.readVarUint(decoder);
      const state = JSON.parse(decoding.readVarString(decoder)) as unknown;
      if (state !== null && (typeof state !== "object" || Array.isArray(state))) throw bad();
      if (clientID !== yClientId) continue;
      own = { clientID, clock, state: state === null ? "null" : JSON.stringify({ ...(state as Record<string, unknown>), user }) };
    }
    if (decoding.hasContent(decoder)) throw bad();
  } catch (error) {
    if (error instanceof AppError) throw error;
    throw bad();
  }
  return own;
}

/** The awareness update that carries these entries. */
export function encodeAwareness(entries: AwarenessEntry[]): Uint8Array {
  const encoder = encoding.createEncoder();
  encoding.writeVarUint(encoder, entries.length);
  for (const e of entries) {
    encoding.writeVarUint(encoder, e.clientID);
    encoding.writeVarUint(encoder, e.clock);
    encoding.writeVarString(encoder, e.state);
  }
  return encoding.toUint8Array(encoder);
}
