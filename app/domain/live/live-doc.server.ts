import * as Y from "yjs";
import type { Actor } from "../actor";
import { MAX_LIVE_DOC_BYTES } from "./limits.server";
import { LIVE_STATE_PART_CHARS, type LiveEvent } from "./live.schema";
import { Presence } from "./presence.server";

/**
 * One project's live document in the primary's memory: the Yjs document,
 * what it was last reconciled with, who is subscribed and who is here.
 * Every change to the document goes through `run` (one operation at a time,
 * in order), so the document in memory is always the stored snapshot plus
 * the stored updates, and a slow step (a checkpoint) never interleaves with
 * an edit.
 */
export class LiveDoc {
  doc: Y.Doc;
  /** The PRD version the document was last saved as or brought in line with. */
  versionId: string | null;
  /** That version's Markdown: the base of three-way merges with saves made elsewhere. */
  baseMarkdown: string;
  /** Holds edits not yet saved as a version. */
  dirty: boolean;
  /** Changes applied to `doc` since it was loaded (tells a checkpoint whether edits came in meanwhile). */
  seq = 0;
  /** Update rows stored since the last snapshot, the last one's id, and the bytes of snapshot and rows. */
  rows: number;
  lastRowId = 0;
  bytes: number;
  /** Who made the last accepted update: the checkpoint saves the version as them. */
  lastEditor: { userId: string } | null = null;
  readonly presence = new Presence();
  readonly subscribers = new Set<Subscriber>();
  /** Removed from the registry: operations still queued on it load the document afresh. */
  evicted = false;
  /** Being saved to leave memory (the registry's bound on documents held). */
  evicting = false;
  lastActivity = Date.now();
  firstDirtyAt: number | null = null;
  timers: { idle?: NodeJS.Timeout; max?: NodeJS.Timeout; evict?: NodeJS.Timeout; sweep?: NodeJS.Timeout } = {};
  private tail: Promise<unknown> = Promise.resolve();
  /** The whole state as base64 at one `seq`: every stream that syncs meanwhile shares one string. */
  private stateCache: { doc: Y.Doc; seq: number; base64: string } | undefined;

  constructor(
    readonly projectId: string,
    doc: Y.Doc,
    init: { versionId: string | null; baseMarkdown: string; dirty: boolean; rows: number; lastRowId: number; bytes: number },
  ) {
    this.doc = doc;
    this.versionId = init.versionId;
    this.baseMarkdown = init.baseMarkdown;
    this.dirty = init.dirty;
    this.rows = init.rows;
    this.lastRowId = init.lastRowId;
    this.bytes = init.bytes;
  }

  /** Runs `operation` after every operation queued before it; its failure is the caller's alone. */
  run<T>(operation: () => T | Promise<T>): Promise<T> {
    const result = this.tail.then(operation);
    this.tail = result.catch(() => {});
    return result;
  }

  /** The whole document as base64 (Y.encodeStateAsUpdate), encoded once per change however many streams sync. */
  stateBase64(): string {
    const cached = this.stateCache;
    if (cached && cached.doc === this.doc && cached.seq === this.seq) return cached.base64;
    const bytes = Y.encodeStateAsUpdate(this.doc);
    const base64 = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength).toString("base64");
    this.stateCache = { doc: this.doc, seq: this.seq, base64 };
    return base64;
  }

  /** Sends an event to every subscriber but the client it came from. */
  broadcast(event: LiveEvent, except?: { userId: string; clientId: string }) {
    const size = eventSize(event);
    for (const sub of this.subscribers) {
      if (except && sub.clientId === except.clientId && sub.userId === except.userId) continue;
      sub.push(event, size);
    }
  }

  /** Sends a `reset` (the new whole state) to every subscriber, in parts. */
  broadcastReset(state: string, head: { epoch: string; versionId: string | null }) {
    const events = withState({ type: "reset", ...head }, state);
    for (const sub of this.subscribers) sub.pushState(events);
  }

  clearTimers() {
    clearTimeout(this.timers.idle);
    clearTimeout(this.timers.max);
    clearTimeout(this.timers.evict);
    clearInterval(this.timers.sweep);
    this.timers = {};
    this.stateCache = undefined;
  }
}

type StateHead = Omit<Extract<LiveEvent, { type: "sync" }>, "state" | "parts"> | Omit<Extract<LiveEvent, { type: "reset" }>, "state" | "parts">;

/**
 * A `sync` or `reset` and the `state` events that carry the rest of a large
 * state: at most LIVE_STATE_PART_CHARS characters each (a multiple of 4, so
 * each part is whole base64). The parts are slices of one string.
 */
export function withState(head: StateHead, state: string): LiveEvent[] {
  const parts = Math.max(1, Math.ceil(state.length / LIVE_STATE_PART_CHARS));
  const events: LiveEvent[] = [{ ...head, state: state.slice(0, LIVE_STATE_PART_CHARS), parts } as LiveEvent];
  for (let i = 1; i < parts; i++) {
    events.push({ type: "state", part: i + 1, state: state.slice(i * LIVE_STATE_PART_CHARS, (i + 1) * LIVE_STATE_PART_CHARS) });
  }
  return events;
}

const eventSize = (event: LiveEvent) =>
  256 +
  (event.type === "update"
    ? event.update.length
    : event.type === "sync" || event.type === "reset" || event.type === "state"
      ? event.state.length
      : event.type === "presence"
        ? (event.awareness?.length ?? 0) + 128 * event.clients.length
        : 0);

/**
 * Events a subscriber may have waiting before it is dropped as too slow (it
 * reconnects and syncs afresh). The bytes count the document's state of its
 * `sync` too, so they stay above the largest document's (base64, in parts):
 * a new stream of a document at the limit is never dropped for its sync.
 */
export const MAX_QUEUED_EVENTS = 5000;
export const MAX_QUEUED_BYTES = 16 * 1024 * 1024;
const largestSync = Math.ceil(MAX_LIVE_DOC_BYTES / 3) * 4 + Math.ceil(MAX_LIVE_DOC_BYTES / LIVE_STATE_PART_CHARS) * 512;
if (largestSync >= MAX_QUEUED_BYTES / 1.25) throw new Error("live: MAX_QUEUED_BYTES must stay well above the sync of the largest document");

/** One open stream: its events wait here until the SSE response takes them. */
export class Subscriber {
  private queue: { event: LiveEvent; size: number }[] = [];
  private queuedBytes = 0;
  private wake: (() => void) | undefined;
  private readonly end = new AbortController();
  closed = false;
  /** Re-checks the caller's access while the stream is open. */
  recheckTimer: NodeJS.Timeout | undefined;

  constructor(
    public actor: Actor,
    readonly clientId: string,
    public canEdit: boolean,
    private readonly onClose: (sub: Subscriber) => void,
  ) {}

  get userId() {
    return this.actor.user.id;
  }

  /** Aborts when the subscription closes (dropped as too slow, evicted, access lost): the response ends too, read or not. */
  get ended(): AbortSignal {
    return this.end.signal;
  }

  push(event: LiveEvent, size = eventSize(event)) {
    if (this.closed) return;
    this.queue.push({ event, size });
    this.queuedBytes += size;
    if (this.queue.length > MAX_QUEUED_EVENTS || this.queuedBytes > MAX_QUEUED_BYTES) return this.close();
    this.wakeUp();
  }

  /** A `sync` or `reset` with its `state` parts (withState), queued together. */
  pushState(events: LiveEvent[]) {
    if (this.closed) return;
    for (const event of events) {
      const size = eventSize(event);
      this.queue.push({ event, size });
      this.queuedBytes += size;
    }
    if (this.queuedBytes > MAX_QUEUED_BYTES) return this.close();
    this.wakeUp();
  }

  /** Bytes of events waiting (tests, the operator's view). */
  get backlog() {
    return { events: this.queue.length, bytes: this.queuedBytes };
  }

  close() {
    if (this.closed) return;
    this.closed = true;
    this.queue = [];
    this.queuedBytes = 0;
    clearInterval(this.recheckTimer);
    this.wakeUp();
    this.onClose(this);
    this.end.abort();
  }

  private wakeUp() {
    const wake = this.wake;
    this.wake = undefined;
    wake?.();
  }

  /** The events, in order, until the stream or the subscription closes. Never throws. */
  async *events(signal: AbortSignal): AsyncGenerator<LiveEvent> {
    const onAbort = () => this.close();
    if (signal.aborted) onAbort();
    signal.addEventListener("abort", onAbort, { once: true });
    try {
      for (;;) {
        const next = this.queue.shift();
        if (next) {
          this.queuedBytes -= next.size;
          yield next.event;
          continue;
        }
        if (this.closed) return;
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      signal.removeEventListener("abort", onAbort);
      this.close();
    }
  }
}
