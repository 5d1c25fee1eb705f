import * as Y from "yjs";
import { remixHandler } from "./build";
import { type ApiResult, ORIGIN } from "./client";
import { assertResponseInContract } from "./contract-check";
import type { Account } from "./org";
import { parseSse, type SseEvent } from "./sse";

/**
 * A browser editor simulated in Node for the live PRD (docs/design/live-editing.md):
 * a plain Y.Doc whose "default" XmlFragment the test edits, the SSE stream of
 * GET …/prd/live read as it arrives (through the real route, in-process), and
 * local edits posted to …/prd/live/updates. Closing the stream checks every
 * event received against the OpenAPI document, as the test client does for
 * every other answer.
 */

export const b64 = (bytes: Uint8Array) => Buffer.from(bytes).toString("base64");
export const unb64 = (text: string) => new Uint8Array(Buffer.from(text, "base64"));

const REMOTE = "remote";
let counter = 0;

export class LiveClient {
  doc = new Y.Doc();
  events: SseEvent[] = [];
  private text = "";
  private pending: Uint8Array[] = [];
  private waiters = new Set<() => void>();
  private reader?: ReadableStreamDefaultReader<string>;
  private done?: Promise<void>;
  response?: Response;

  constructor(
    readonly account: Account,
    readonly projectId: string,
    readonly clientId = `client-${Date.now().toString(36)}-${counter++}`,
  ) {
    this.doc.on("update", (update: Uint8Array, origin: unknown) => {
      if (origin !== REMOTE) this.pending.push(update);
    });
  }

  get base() {
    return `/api/projects/${this.projectId}/prd/live`;
  }

  get fragment() {
    return this.doc.getXmlFragment("default");
  }

  /** Opens the stream; resolves with the status and headers (and, for an error answered as JSON, its body). */
  async open(): Promise<ApiResult> {
    const path = `${this.base}?clientId=${this.clientId}`;
    const headers = new Headers({ Host: new URL(ORIGIN).host, Cookie: [...this.account.client.jar].map(([k, v]) => `${k}=${v}`).join("; ") });
    const response = await remixHandler()(new Request(`${ORIGIN}${path}`, { headers }), { ip: this.account.client.ip });
    this.response = response;
    if (!(response.headers.get("Content-Type") ?? "").includes("text/event-stream")) {
      const text = await response.text();
      await assertResponseInContract("GET", path, { status: response.status, headers: response.headers, text });
      return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : undefined };
    }
    this.reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    this.done = this.pump();
    return { status: response.status, headers: response.headers, text: "", body: undefined };
  }

  private async pump() {
    const reader = this.reader!;
    let buffered = "";
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true as const }));
      if (done) break;
      this.text += value;
      buffered += value;
      const end = buffered.lastIndexOf("\n\n");
      if (end < 0) continue;
      const complete = buffered.slice(0, end + 2);
      buffered = buffered.slice(end + 2);
      for (const event of parseSse(complete)) this.receive(event);
    }
    this.notify();
  }

  /** The epoch of the document held (the server's identity of it). */
  epoch: string | null = null;
  /** The `sync` and `reset` events received whole (their parts joined). */
  whole: SseEvent[] = [];

  /** A `sync` or `reset` whose state is still coming in `state` events. */
  private partial: { event: SseEvent; parts: string[] } | null = null;

  private receive(received: SseEvent) {
    this.events.push(received);
    // As a browser must: a large state comes in parts (`parts`), joined before it is applied.
    let event = received;
    if (event.type === "state") {
      if (!this.partial) throw new Error("a state part without its sync or reset");
      if (event.part !== this.partial.parts.length + 1) throw new Error(`state part ${event.part} out of order`);
      this.partial.parts.push(event.state);
      if (this.partial.parts.length < this.partial.event.parts) return this.notify();
      event = { ...this.partial.event, state: this.partial.parts.join("") };
      this.partial = null;
      this.whole.push(event);
    } else if ((event.type === "sync" || event.type === "reset") && event.parts > 1) {
      this.partial = { event, parts: [event.state] };
      return this.notify();
    } else if (event.type === "sync" || event.type === "reset") this.whole.push(event);
    // As a browser must: a document of another epoch (a reset, missed or not) replaces the local one.
    if (event.type === "reset" || (event.type === "sync" && this.epoch !== null && event.epoch !== this.epoch)) this.replaceDoc();
    if (event.type === "sync" || event.type === "reset") {
      this.epoch = event.epoch;
      Y.applyUpdate(this.doc, unb64(event.state), REMOTE);
    } else if (event.type === "update" && event.clientId !== this.clientId) Y.applyUpdate(this.doc, unb64(event.update), REMOTE);
    this.notify();
  }

  private replaceDoc() {
    this.doc = new Y.Doc();
    this.doc.on("update", (update: Uint8Array, origin: unknown) => {
      if (origin !== REMOTE) this.pending.push(update);
    });
    this.pending = [];
  }

  private notify() {
    for (const w of [...this.waiters]) w();
  }

  /** Waits for an event that matches (received already or still to come). */
  async waitFor(match: (e: SseEvent) => boolean, ms = 5000, from = 0): Promise<SseEvent> {
    const until = Date.now() + ms;
    for (;;) {
      const found = this.events.slice(from).find(match);
      if (found) return found;
      if (Date.now() > until) throw new Error(`no matching event within ${ms} ms; received: ${this.events.map((e) => e.type).join(", ")}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        this.waiters.add(wake);
      });
    }
  }

  /** Waits until the first `sync` has arrived whole (all its parts) and been applied. */
  async synced(ms = 10_000): Promise<SseEvent> {
    const until = Date.now() + ms;
    while (!this.whole.some((e) => e.type === "sync")) {
      if (Date.now() > until) throw new Error(`no whole sync within ${ms} ms; received: ${this.events.map((e) => e.type).join(", ")}`);
      await new Promise<void>((resolve) => {
        const timer = setTimeout(resolve, 50);
        const wake = () => {
          clearTimeout(timer);
          this.waiters.delete(wake);
          resolve();
        };
        this.waiters.add(wake);
      });
    }
    return this.whole.find((e) => e.type === "sync")!;
  }

  /** Sends the local edits made since the last send as one update. */
  async send(): Promise<ApiResult> {
    const update = Y.mergeUpdates(this.pending);
    this.pending = [];
    return this.account.client.post(`${this.base}/updates`, { clientId: this.clientId, update: b64(update) });
  }

  presence(body: Record<string, unknown>) {
    return this.account.client.post(`${this.base}/presence`, { clientId: this.clientId, ...body });
  }

  /** Resolves when the server has ended the stream. */
  get closed() {
    return this.done ?? Promise.resolve();
  }

  /** Closes the stream (as a tab that closes) and checks what it received against the contract. */
  async close() {
    if (!this.reader) return;
    await this.reader.cancel().catch(() => {});
    await this.done;
    const path = `${this.base}?clientId=${this.clientId}`;
    const text = this.text.slice(0, this.text.lastIndexOf("\n\n") + 2);
    await assertResponseInContract("GET", path, { status: this.response!.status, headers: this.response!.headers, text });
    this.reader = undefined;
  }
}

/** The first Y.XmlText inside a block of the fragment (a paragraph's or heading's text). */
export function textOf(block: Y.XmlElement | Y.XmlFragment): Y.XmlText {
  for (const child of block.toArray()) {
    if (child instanceof Y.XmlText) return child;
    if (child instanceof Y.XmlElement) {
      try {
        return textOf(child);
      } catch {
        /* not here */
      }
    }
  }
  throw new Error("no text in this block");
}

/** The index of the first top-level block whose text starts with `prefix`. */
export function blockIndex(fragment: Y.XmlFragment, prefix: string) {
  const i = fragment.toArray().findIndex(
    (b) =>
      b instanceof Y.XmlElement &&
      b
        .toString()
        .replace(/<[^>]+>/g, "")
        .startsWith(prefix),
  );
  if (i < 0) throw new Error(`no block starts with ${prefix}`);
  return i;
}
