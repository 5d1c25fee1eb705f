import { logger } from "~/utils/log.server";
import type { Actor } from "../actor";
import { AppError, validationError } from "../errors";
import { currentPrd, onPrdSaved } from "../prd/prd.server";
import { projectAccess, requireEdit } from "../projects/access.server";
import { type CheckpointResult, checkpointLive, scheduleCheckpoint } from "./checkpoint.server";
import { epochOf } from "./document.server";
import { type LiveDoc, Subscriber, withState } from "./live-doc.server";
import { armEviction, dropAll, evict, getLiveDoc, loadedLiveDoc, loadedLiveDocs, makeRoomAfter } from "./live-docs.server";
import { assertProjectStreamRoom, assertUserStreamRoom, MAX_LIVE_DOC_BYTES, takeUserStream, tooLarge } from "./limits.server";
import { LIVE_MAX_AWARENESS_BYTES, LIVE_MAX_UPDATE_BYTES, type LivePresenceInput, type LiveUpdateInput } from "./live.schema";
import { reloadFromStore } from "./load.server";
import { type AwarenessEntry, colorFor, encodeAwareness, sanitizeAwareness } from "./presence.server";
import { compact, reconcile, toBase64 } from "./reconcile.server";
import { appendUpdate } from "./store.server";
import { applyClientUpdate, checkUpdateShape, refusalError } from "./update-check.server";

/**
 * Real-time co-editing of a project's PRD (docs/design/live-editing.md): a
 * Yjs document per project in the primary's memory, updates in by POST and
 * out by SSE, stored before they are acknowledged, saved as PRD versions at
 * checkpoints. Any reader of the project may follow it and be seen; only
 * those who may edit the project may change it.
 */

/** Update rows after which the document is folded into a new snapshot. */
export const COMPACT_AFTER_ROWS = 200;
/** How often an open stream re-checks its caller's access. */
const RECHECK_MS = 60_000;
/** How often presence entries are checked for expiry. */
const SWEEP_MS = 5_000;

const fromBase64 = (text: string) => new Uint8Array(Buffer.from(text, "base64"));

// ---------------------------------------------------------------- the document registry's hooks

let savesFollowed = false;
/** From the first use on, saves made elsewhere (API, form, AI, restore) reach the loaded documents. */
function followSaves() {
  if (savesFollowed) return;
  savesFollowed = true;
  onPrdSaved((saved) => {
    if (saved.source === "live") return;
    const live = loadedLiveDoc(saved.projectId);
    if (!live) return;
    live
      .run(async () => {
        if (live.evicted) return;
        await reconcile(live);
        if (live.dirty) scheduleCheckpoint(live);
      })
      .catch((error) => logger.warn("[live] a save made elsewhere could not be brought into the live document", { projectId: saved.projectId, error }));
  });
}

const canEvict = (live: LiveDoc) => !live.dirty;
const onLoad = (live: LiveDoc) => {
  if (live.dirty) scheduleCheckpoint(live);
  armEviction(live, canEvict);
};

const RETRY = Symbol("retry");

/** Runs `operation` in the project's live document queue, loading the document first (again, if it was evicted meanwhile). */
async function withLive<T>(projectId: string, operation: (live: LiveDoc) => T | Promise<T>): Promise<T> {
  followSaves();
  for (;;) {
    const live = await getLiveDoc(projectId, onLoad);
    const result = await live.run(async () => (live.evicted ? RETRY : { value: await operation(live) }));
    if (result !== RETRY) return result.value;
  }
}

// ---------------------------------------------------------------- presence

function broadcastPresence(live: LiveDoc, awareness: AwarenessEntry[], except?: { userId: string; clientId: string }) {
  live.broadcast(
    {
      type: "presence",
      people: live.presence.people(),
      clients: live.presence.clients(),
      ...(awareness.length ? { awareness: toBase64(encodeAwareness(awareness)) } : {}),
    },
    except,
  );
}

function sweepPresence(live: LiveDoc) {
  if (live.timers.sweep || !live.presence.size) return;
  live.timers.sweep = setInterval(() => {
    const { any, removed } = live.presence.expire();
    if (any) broadcastPresence(live, removed);
    if (!live.presence.size) {
      clearInterval(live.timers.sweep);
      live.timers.sweep = undefined;
    }
  }, SWEEP_MS).unref();
}

const streamless = () =>
  new AppError(
    "CONFLICT",
    409,
    "Open the live stream (GET …/prd/live?clientId=) with this clientId before sending presence: presence belongs to an open stream",
  );

/**
 * Records that a client is here (`mode` editing only for those who may edit)
 * and relays its awareness state (cursor, selection) to the others, with its
 * `user` set to the account's name and colour. Any reader may call it, for a
 * client whose stream is open (409 otherwise): so presence entries are
 * bounded by the streams, and a client gone is gone.
 */
export async function setPresence(actor: Actor, projectId: string, input: LivePresenceInput) {
  const access = await projectAccess(actor, projectId);
  const mode = input.mode === "editing" && access.canEdit ? "editing" : "viewing";
  let awareness: AwarenessEntry | null = null;
  if (input.awareness !== undefined) {
    const bytes = fromBase64(input.awareness);
    if (bytes.byteLength > LIVE_MAX_AWARENESS_BYTES) throw tooLarge("An awareness update", LIVE_MAX_AWARENESS_BYTES);
    if (input.yClientId === undefined) throw validationError("yClientId", "yClientId is required with awareness");
    awareness = sanitizeAwareness(bytes, input.yClientId, { name: actor.user.name, color: colorFor(actor.user.id) });
  }
  const who = { userId: actor.user.id, clientId: input.clientId };
  // Without a stream there is no document to be present on: nothing is loaded for a presence.
  if (!loadedLiveDoc(projectId)) throw streamless();
  return withLive(projectId, (live) => {
    if (![...live.subscribers].some((s) => !s.closed && s.userId === who.userId && s.clientId === who.clientId)) throw streamless();
    const result = live.presence.upsert({ ...who, name: actor.user.name, mode, yClientId: input.yClientId, awareness });
    if (result.changed) broadcastPresence(live, result.awareness ? [result.awareness] : [], who);
    sweepPresence(live);
    armEviction(live, canEvict);
    return { people: live.presence.people() };
  });
}

// ---------------------------------------------------------------- reading and following

/** The live document now, for any reader of the project: the whole Yjs state (base64), its epoch, its version and whether this caller may edit it. */
export async function openLive(actor: Actor, projectId: string) {
  const access = await projectAccess(actor, projectId);
  return withLive(projectId, (live) => ({
    state: live.stateBase64(),
    epoch: epochOf(live.doc),
    versionId: live.versionId,
    canEdit: access.canEdit,
  }));
}

function leave(live: LiveDoc, sub: Subscriber) {
  if (live.evicted) return;
  live.subscribers.delete(sub);
  const sameClient = [...live.subscribers].some((s) => s.userId === sub.userId && s.clientId === sub.clientId);
  if (!sameClient) {
    const removal = live.presence.remove(sub.userId, sub.clientId);
    if (removal !== undefined) broadcastPresence(live, removal ? [removal] : []);
  }
  if (live.subscribers.size === 0) armEviction(live, canEvict);
}

async function recheckAccess(live: LiveDoc, sub: Subscriber, recheck: () => Promise<Actor>) {
  try {
    const actor = await recheck();
    const access = await projectAccess(actor, live.projectId);
    sub.actor = actor;
    sub.canEdit = access.canEdit;
  } catch (error) {
    // A key's request budget being spent says nothing about access.
    if (error instanceof AppError && error.code === "RATE_LIMITED") return;
    sub.close();
  }
}

/**
 * Subscribes a client (one editor tab, `clientId`) to the project's live
 * document: its first event is `sync` (the whole document, who is here and
 * their cursors), then `update`, `presence`, `version` and `reset` as they
 * happen. The subscription ends when the stream closes; while it is open the
 * caller's access is checked again every minute with `recheck`.
 */
export async function subscribeLive(actor: Actor, projectId: string, options: { clientId: string; recheck?: () => Promise<Actor> }) {
  const access = await projectAccess(actor, projectId);
  // Before anything is loaded for it: a user at their cap costs nothing more.
  assertUserStreamRoom(actor.user.id);
  return withLive(projectId, (live) => {
    assertUserStreamRoom(actor.user.id);
    assertProjectStreamRoom(live.subscribers.size);
    const release = takeUserStream(actor.user.id);
    const sub = new Subscriber(actor, options.clientId, access.canEdit, (s) => {
      release();
      leave(live, s);
    });
    const joined = live.presence.upsert({ userId: actor.user.id, name: actor.user.name, clientId: options.clientId, mode: "viewing", keepMode: true });
    const awareness = live.presence.awareness();
    sub.pushState(
      withState(
        {
          type: "sync",
          epoch: epochOf(live.doc),
          versionId: live.versionId,
          canEdit: access.canEdit,
          people: live.presence.people(),
          clients: live.presence.clients(),
          ...(awareness.length ? { awareness: toBase64(encodeAwareness(awareness)) } : {}),
        },
        live.stateBase64(),
      ),
    );
    // A state past the queue's bound (a document stored before the bounds) closes it at once: the stream just ends.
    if (sub.closed) return sub;
    live.subscribers.add(sub);
    armEviction(live, canEvict);
    if (joined.changed) broadcastPresence(live, [], { userId: actor.user.id, clientId: options.clientId });
    sweepPresence(live);
    const recheck = options.recheck;
    if (recheck) sub.recheckTimer = setInterval(() => void recheckAccess(live, sub, recheck), RECHECK_MS).unref();
    return sub;
  });
}

// ---------------------------------------------------------------- editing

/**
 * Accepts one Yjs update from a client who may edit the project: checked
 * (size, decodable, applicable), stored, applied, sent to every other
 * subscriber; the idle checkpoint restarts. Nothing is stored for an update
 * that is refused.
 */
export async function applyLiveUpdate(actor: Actor, projectId: string, input: LiveUpdateInput) {
  await requireEdit(actor, projectId);
  const update = fromBase64(input.update);
  if (update.byteLength > LIVE_MAX_UPDATE_BYTES) throw tooLarge("A live update", LIVE_MAX_UPDATE_BYTES);
  checkUpdateShape(update);
  const who = { userId: actor.user.id, clientId: input.clientId };
  await withLive(projectId, async (live) => {
    if (live.bytes + update.byteLength > MAX_LIVE_DOC_BYTES) {
      await compact(live);
      if (live.bytes + update.byteLength > MAX_LIVE_DOC_BYTES) throw tooLarge("The live document", MAX_LIVE_DOC_BYTES);
    }
    const refusal = applyClientUpdate(live.doc, update);
    if (refusal) {
      // Half-applied at worst: read the stored document back, which never held this update.
      await reloadFromStore(live);
      throw refusalError(refusal);
    }
    try {
      live.lastRowId = await appendUpdate(projectId, update, { ...who, markDirty: !live.dirty });
    } catch (error) {
      await reloadFromStore(live);
      throw error;
    }
    live.rows++;
    live.bytes += update.byteLength;
    live.seq++;
    live.dirty = true;
    live.lastEditor = { userId: actor.user.id };
    live.broadcast({ type: "update", update: input.update, clientId: input.clientId }, who);
    if (live.rows > COMPACT_AFTER_ROWS) await compact(live);
    scheduleCheckpoint(live);
    armEviction(live, canEvict);
    makeRoomAfter(live);
  });
  return { accepted: true as const };
}

/** Saves the live edits as a PRD version now (when there are any); for those who may edit the project. */
export async function saveLiveVersion(actor: Actor, projectId: string): Promise<CheckpointResult> {
  await requireEdit(actor, projectId);
  const result = await withLive(projectId, (live) => live);
  const outcome = await checkpointLive(result, "manual", actor);
  if (outcome.saved) return outcome;
  const prd = await currentPrd(projectId);
  return { saved: false, versionId: prd?.versionId ?? null, versionNumber: prd?.versionNumber ?? null };
}

// ---------------------------------------------------------------- the process

/** Saves every loaded document's unsaved edits now (graceful shutdown; tests). Returns how many versions were saved. */
export async function flushLiveCheckpoints() {
  const outcomes = await Promise.all(loadedLiveDocs().map((live) => (live.dirty ? checkpointLive(live, "shutdown") : null)));
  return outcomes.filter((o) => o?.saved).length;
}

/** Graceful shutdown: saves unsaved edits, then ends every live stream and forgets the documents. */
export async function stopLive() {
  await flushLiveCheckpoints();
  for (const live of loadedLiveDocs()) evict(live);
}

/**
 * Forgets every live document without saving: streams end, and the next
 * request loads from SQLite. A demoted LiteFS primary calls it (the new
 * primary serves live editing); tests call it to simulate a restart.
 */
export function dropLiveDocs() {
  dropAll();
}
