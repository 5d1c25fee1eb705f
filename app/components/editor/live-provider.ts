import { applyAwarenessUpdate, Awareness, encodeAwarenessUpdate } from "y-protocols/awareness";
import * as Y from "yjs";

/**
 * The browser end of live editing (docs/design/live-editing.md): the server
 * streams the document's Yjs updates and who is here over SSE; local edits
 * and presence go up as small POSTs. Unacknowledged edits are kept and sent
 * again until the server has stored them, so a dropped connection loses
 * nothing typed.
 */

export interface Person {
  userId: string;
  name: string;
  color: string;
  mode: "viewing" | "editing";
}

export type LiveStatus = "connecting" | "live" | "offline";

export interface LiveState {
  status: LiveStatus;
  synced: boolean;
  /** Local edits the server has not stored yet. */
  unsaved: boolean;
  people: Person[];
  version: { versionId: string; versionNumber?: number } | null;
  canEdit: boolean;
  error: string | null;
}

const REMOTE = Symbol("remote");

export const toBase64 = (bytes: Uint8Array) => {
  let binary = "";
  for (let i = 0; i < bytes.length; i += 0x8000) binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
  return btoa(binary);
};
export const fromBase64 = (text: string) => Uint8Array.from(atob(text), (c) => c.charCodeAt(0));

const newClientId = () => {
  const bytes = crypto.getRandomValues(new Uint8Array(12));
  return Array.from(bytes, (b) => b.toString(16).padStart(2, "0")).join("");
};

type Listener = (state: LiveState) => void;

export class LiveProvider {
  readonly clientId = newClientId();
  readonly awareness: Awareness;
  private source: EventSource | null = null;
  private pending: Uint8Array[] = [];
  private inFlight = false;
  private flushTimer: ReturnType<typeof setTimeout> | null = null;
  private presenceTimer: ReturnType<typeof setTimeout> | null = null;
  private heartbeat: ReturnType<typeof setInterval> | null = null;
  private retryDelay = 500;
  private listeners = new Set<Listener>();
  private destroyed = false;
  /** The identity of the server's document; a different one after a reset means: replace, never merge. */
  private epoch: string | null = null;
  /** A `sync` or `reset` whose state comes in several events: its fields and the parts received so far. */
  private partial: { data: Record<string, unknown>; parts: string[]; expected: number } | null = null;
  state: LiveState = { status: "connecting", synced: false, unsaved: false, people: [], version: null, canEdit: false, error: null };

  constructor(
    readonly projectId: string,
    readonly doc: Y.Doc,
    private readonly hooks: { onReset(state: Uint8Array): void },
    private readonly mode: () => "viewing" | "editing",
  ) {
    this.awareness = new Awareness(doc);
    doc.on("update", this.onLocalUpdate);
    this.awareness.on("update", this.onAwareness);
  }

  private get base() {
    return `/api/projects/${encodeURIComponent(this.projectId)}/prd/live`;
  }

  subscribe(listener: Listener) {
    this.listeners.add(listener);
    listener(this.state);
    return () => this.listeners.delete(listener);
  }

  private set(patch: Partial<LiveState>) {
    this.state = { ...this.state, ...patch };
    for (const l of this.listeners) l(this.state);
  }

  connect() {
    const source = new EventSource(`${this.base}?clientId=${this.clientId}`);
    this.source = source;
    const handle = (event: MessageEvent) => this.onEvent(event.type, event.data);
    for (const name of ["message", "sync", "state", "update", "presence", "version", "reset", "error"]) source.addEventListener(name, handle as EventListener);
    source.onopen = () => this.set({ status: "live", error: null });
    source.onerror = () => {
      if (this.destroyed) return;
      this.set({ status: source.readyState === EventSource.CLOSED ? "offline" : "connecting" });
      if (source.readyState === EventSource.CLOSED) setTimeout(() => !this.destroyed && this.connect(), 3000);
    };
    this.heartbeat = setInterval(() => this.sendPresence(), 10_000);
  }

  private onEvent(name: string, raw: string) {
    if (!raw) return;
    let data: Record<string, unknown>;
    try {
      data = JSON.parse(raw);
    } catch {
      return;
    }
    const type = typeof data.type === "string" ? data.type : name;
    // A large document's state comes in parts: the `sync` or `reset` with the first, `state` events with the rest.
    if (type === "state") {
      if (!this.partial) return;
      this.partial.parts.push(String(data.state));
      if (this.partial.parts.length < this.partial.expected) return;
      const whole: Record<string, unknown> = { ...this.partial.data, state: this.partial.parts.join("") };
      this.partial = null;
      this.onWhole(String(whole.type), whole);
      return;
    }
    this.partial = null;
    const parts = Number(data.parts ?? 1);
    if ((type === "sync" || type === "reset") && parts > 1) {
      this.partial = { data: { ...data, type }, parts: [String(data.state)], expected: parts };
      return;
    }
    this.onWhole(type, data);
  }

  private onWhole(type: string, data: Record<string, unknown>) {
    if (type === "sync") {
      const state = fromBase64(String(data.state));
      const epoch = data.epoch == null ? null : String(data.epoch);
      if (this.epoch !== null && epoch !== this.epoch) {
        // The document was rebuilt while this tab was away: start from the new one.
        this.pending = [];
        this.hooks.onReset(state);
        return;
      }
      this.epoch = epoch;
      Y.applyUpdate(this.doc, state, REMOTE);
      // Edits the server does not have (typed while offline, or lost in a fail-over) go up again.
      const missing = Y.encodeStateAsUpdate(this.doc, Y.encodeStateVectorFromUpdate(state));
      if (Y.parseUpdateMeta(missing).to.size) this.pending.push(missing);
      if (data.awareness) applyAwarenessUpdate(this.awareness, fromBase64(String(data.awareness)), REMOTE);
      this.set({
        synced: true,
        status: "live",
        canEdit: Boolean(data.canEdit),
        people: (data.people as Person[]) ?? [],
        version: data.versionId ? { versionId: String(data.versionId) } : this.state.version,
      });
      this.sendPresence();
      this.flush();
    } else if (type === "update") {
      if (data.clientId !== this.clientId) Y.applyUpdate(this.doc, fromBase64(String(data.update)), REMOTE);
    } else if (type === "presence") {
      if (data.awareness) applyAwarenessUpdate(this.awareness, fromBase64(String(data.awareness)), REMOTE);
      if (Array.isArray(data.people)) this.set({ people: data.people as Person[] });
    } else if (type === "version") {
      this.set({ version: { versionId: String(data.versionId), versionNumber: Number(data.versionNumber) } });
    } else if (type === "reset") {
      this.pending = [];
      this.hooks.onReset(fromBase64(String(data.state)));
    }
  }

  private onLocalUpdate = (update: Uint8Array, origin: unknown) => {
    if (origin === REMOTE) return;
    this.pending.push(update);
    this.set({ unsaved: true });
    if (!this.flushTimer) this.flushTimer = setTimeout(() => this.flush(), 40);
  };

  private async flush() {
    this.flushTimer = null;
    if (this.inFlight || !this.pending.length || !this.state.synced || this.destroyed) return;
    const batch = this.pending;
    this.pending = [];
    this.inFlight = true;
    try {
      const response = await fetch(`${this.base}/updates`, {
        method: "POST",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ clientId: this.clientId, update: toBase64(Y.mergeUpdates(batch)) }),
      });
      if (response.status === 403 || response.status === 404 || response.status === 400 || response.status === 413) {
        const body = (await response.json().catch(() => ({}))) as { error?: string };
        this.set({ error: body.error ?? "Your change was not accepted.", unsaved: false });
        return;
      }
      if (!response.ok) throw new Error(String(response.status));
      this.retryDelay = 500;
      this.set({ error: null });
    } catch {
      this.pending = [...batch, ...this.pending];
      this.retryDelay = Math.min(this.retryDelay * 2, 10_000);
      this.set({ status: "offline" });
      setTimeout(() => this.flush(), this.retryDelay);
      return;
    } finally {
      this.inFlight = false;
    }
    if (this.pending.length) this.flush();
    else this.set({ unsaved: false });
  }

  private onAwareness = ({ added, updated, removed }: { added: number[]; updated: number[]; removed: number[] }, origin: unknown) => {
    if (origin === REMOTE) return;
    if ([...added, ...updated, ...removed].includes(this.doc.clientID) && !this.presenceTimer) {
      this.presenceTimer = setTimeout(() => this.sendPresence(), 150);
    }
  };

  private sendPresence() {
    if (this.presenceTimer) clearTimeout(this.presenceTimer);
    this.presenceTimer = null;
    if (this.destroyed || !this.state.synced) return;
    const awareness = toBase64(encodeAwarenessUpdate(this.awareness, [this.doc.clientID]));
    fetch(`${this.base}/presence`, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ clientId: this.clientId, mode: this.mode(), yClientId: this.doc.clientID, awareness }),
    })
      .then(async (r) => (r.ok ? this.set({ people: ((await r.json()) as { people: Person[] }).people }) : undefined))
      .catch(() => {});
  }

  /** Saves a version of the PRD now (it is also saved after a pause in typing). */
  async saveVersion() {
    await this.flush();
    const response = await fetch(`${this.base}/versions`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" });
    const body = (await response.json().catch(() => ({}))) as { versionId?: string; versionNumber?: number; saved?: boolean; error?: string };
    if (!response.ok) throw new Error(body.error ?? "The version could not be saved.");
    if (body.versionId) this.set({ version: { versionId: body.versionId, versionNumber: body.versionNumber } });
    return body;
  }

  destroy() {
    this.destroyed = true;
    this.source?.close();
    if (this.heartbeat) clearInterval(this.heartbeat);
    if (this.flushTimer) clearTimeout(this.flushTimer);
    if (this.presenceTimer) clearTimeout(this.presenceTimer);
    this.doc.off("update", this.onLocalUpdate);
    this.awareness.off("update", this.onAwareness);
    this.awareness.destroy();
    this.listeners.clear();
  }
}
