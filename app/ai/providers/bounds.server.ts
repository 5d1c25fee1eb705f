import { config } from "~/config.server";
import { PROVIDER_SHORT, ProviderError, type ProviderId } from "../types";
import { toProviderError } from "./errors";

/**
 * The clocks every provider call runs under (docs/ai.md, "Time limits").
 *
 * The SDKs' own `timeout` (AI_TIMEOUT_MS) does not bound an answer that has
 * started: `openai` and `@anthropic-ai/sdk` clear their timer once the
 * headers arrive, so a stream (or a non-streamed body) that stalls after
 * them stays open for ever, holding a socket and one of the user's AI slots.
 * `@google/generative-ai` never clears its timer, so it cuts the whole call,
 * a healthy long stream included. Hence, for every provider:
 *
 * - idle (AI_STREAM_IDLE_MS): once the answer has started, the provider may
 *   not fall silent for longer — before its first chunk, between two chunks,
 *   or while a non-streamed body is read. Time the consumer spends with a
 *   chunk (a slow SSE reader) does not count.
 * - total (AI_STREAM_TOTAL_MS): the whole call, from the first attempt to
 *   the last byte, so a stream that trickles is cut too.
 *
 * Either one aborts the SDK's request through the signal it was given (the
 * socket closes) and fails the call with a ProviderError, which an SSE
 * client receives as `error` / GENERATION_ERROR and a JSON caller as 502
 * PROVIDER_ERROR. The caller's own signal (the client went away) still
 * aborts the call as before.
 */

export interface CallBounds {
  idleMs: number;
  totalMs: number;
}

export const callBounds = (): CallBounds => ({ idleMs: config().AI_STREAM_IDLE_MS, totalMs: config().AI_STREAM_TOTAL_MS });

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

export class BoundedCall {
  /** What the SDK call must be given: it aborts on either bound or when the caller's signal aborts. */
  readonly signal: AbortSignal;
  private readonly controller = new AbortController();
  private readonly label: string;
  private readonly total: NodeJS.Timeout;
  private idle: NodeJS.Timeout | undefined;
  private stopped: ProviderError | null = null;
  private readonly cut: Promise<never>;
  private rejectCut: (error: ProviderError) => void = () => {};
  private readonly onCallerAbort = () => this.stop(toProviderError(this.provider, this.caller?.reason, this.apiKey, this.caller));

  constructor(
    private readonly provider: ProviderId,
    private readonly apiKey: string,
    private readonly caller?: AbortSignal,
    private readonly bounds: CallBounds = callBounds(),
  ) {
    this.signal = this.controller.signal;
    this.label = PROVIDER_SHORT[provider];
    this.cut = new Promise<never>((_, reject) => {
      this.rejectCut = reject;
    });
    this.cut.catch(() => {});
    this.total = setTimeout(
      () => this.stop(new ProviderError(provider, `${this.label} took longer than ${seconds(bounds.totalMs)} to answer, so the answer was cut off`)),
      bounds.totalMs,
    );
    if (caller?.aborted) this.onCallerAbort();
    else caller?.addEventListener("abort", this.onCallerAbort, { once: true });
  }

  /** Ends the call: the request is aborted (a no-op when it completed) and `error` is what every pending wait rejects with. */
  private stop(error: ProviderError) {
    if (this.stopped) return;
    this.stopped = error;
    this.clearClocks();
    this.controller.abort(error);
    this.rejectCut(error);
  }

  private clearClocks() {
    clearTimeout(this.total);
    clearTimeout(this.idle);
    this.caller?.removeEventListener("abort", this.onCallerAbort);
  }

  /** (Re)starts the idle clock: the provider must send something within AI_STREAM_IDLE_MS. */
  startIdle() {
    clearTimeout(this.idle);
    if (this.stopped) return;
    this.idle = setTimeout(
      () => this.stop(new ProviderError(this.provider, `${this.label} stopped sending its answer (nothing for ${seconds(this.bounds.idleMs)})`)),
      this.bounds.idleMs,
    );
  }

  private pauseIdle() {
    clearTimeout(this.idle);
  }

  /** `pending`, unless a bound or the caller ends the call first. */
  race<T>(pending: Promise<T>): Promise<T> {
    return Promise.race([pending, this.cut]);
  }

  /**
   * A streamed answer (the SDK's iterable, obtained once the headers came):
   * every item must arrive within the idle bound of the previous one, or of
   * the start.
   */
  async *chunks<T>(source: AsyncIterable<T>): AsyncGenerator<T, void> {
    const iterator = source[Symbol.asyncIterator]();
    let finished = false;
    try {
      for (;;) {
        this.startIdle();
        const next = await this.race(iterator.next());
        this.pauseIdle();
        if (next.done) {
          finished = true;
          return;
        }
        yield next.value;
      }
    } finally {
      this.pauseIdle();
      // Stopped early (a bound, the caller, or the consumer): let the SDK release its reader.
      if (!finished) void Promise.resolve(iterator.return?.()).catch(() => {});
    }
  }

  /**
   * A non-streamed answer. `headers` resolves when the answer's headers
   * came (the Stainless SDKs' `asResponse()`): from then the body must be
   * read within the idle bound.
   */
  async answer<T>(pending: Promise<T>, headers?: Promise<unknown>): Promise<T> {
    headers?.then(
      () => this.startIdle(),
      () => {},
    );
    return this.race(pending);
  }

  /** The error to report: the bound's own when one ended the call, else the SDK's, made safe. */
  fail(error: unknown): ProviderError {
    return this.stopped ?? toProviderError(this.provider, error, this.apiKey, this.caller);
  }

  /** Stops the clocks; call once the call has completed or failed. */
  end() {
    this.clearClocks();
  }
}

/** Runs `call` under the bounds: it gets the signal to pass to its SDK and the BoundedCall to wrap its stream or answer with. */
export async function bounded<T>(provider: ProviderId, apiKey: string, caller: AbortSignal | undefined, call: (bounds: BoundedCall) => Promise<T>): Promise<T> {
  const guard = new BoundedCall(provider, apiKey, caller);
  try {
    return await call(guard);
  } catch (error) {
    throw guard.fail(error);
  } finally {
    guard.end();
  }
}

/**
 * One attempt that must settle within `ms` (AI_TIMEOUT_MS), for an SDK that
 * leaves the timing to us (`@google/generative-ai`, whose own timer would
 * cut a whole stream): a stream's attempt settles at the headers, a plain
 * call once its body is read. The attempt's signal follows `parent` after
 * that, so the bounds above still reach the body. Too late: `late()`.
 */
export async function within<T>(parent: AbortSignal, ms: number, start: (signal: AbortSignal) => Promise<T>, late: () => Error): Promise<T> {
  const attempt = new AbortController();
  const follow = () => attempt.abort(parent.reason);
  if (parent.aborted) follow();
  else parent.addEventListener("abort", follow, { once: true });
  let timedOut = false;
  const timer = setTimeout(() => {
    timedOut = true;
    attempt.abort(late());
  }, ms);
  try {
    return await start(attempt.signal);
  } catch (error) {
    parent.removeEventListener("abort", follow);
    throw timedOut && !parent.aborted ? late() : error;
  } finally {
    clearTimeout(timer);
  }
}
