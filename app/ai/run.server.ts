import { z } from "zod/v4";
import type { AiKeySource } from "#db/schema";
import { config } from "~/config.server";
import type { Actor } from "~/domain/actor";
import { touchProviderKey } from "./stored-keys.server";
import { AppError } from "~/domain/errors";
import type { AiEvent, DoneEvent, Producer } from "./events";
import { resolveProvider, type Resolved } from "./keys.server";
import { createProviderClient } from "./providers/index.server";
import { chunkText, stripOuterFence, type TextFilter } from "./text";
import { type ModelRequest, type ModelSource, ProviderError, type ProviderId, type Usage } from "./types";
import { assertTokenBudget, estimateTokens, recordCall } from "./usage.server";

/**
 * Runs AI tasks on whatever answers for the caller: a provider through its
 * SDK, or the offline drafter. Domain functions call `prepareAi` first (so
 * key resolution and the token budget fail as HTTP errors, before any
 * stream starts), then stream text with `streamText` or get validated JSON
 * with `completeJson`. Every call is logged with its token usage.
 */

export interface AiTask {
  actor: Actor;
  /** Task name for the usage log, e.g. "generate_prd". */
  task: string;
  projectId?: string | null;
  /** An explicit provider choice from the request. */
  provider?: ProviderId;
}

export type PromptBuilder = () => Omit<ModelRequest, "signal" | "json">;

export interface TextSpec {
  prompt: PromptBuilder;
  /** The offline drafter's whole text (computed in a worker thread: app/ai/builtin/offline.server.ts), streamed in chunks. */
  builtin: () => string | Promise<string>;
  /** Phase name for progress events. */
  phase?: string;
  /** Percent done (0–100) judged from the text so far, for progress events. */
  progress?: (textSoFar: string) => number;
  /** A streaming filter applied to provider output (not to the drafter's). */
  filter?: () => TextFilter;
}

export interface JsonSpec<T> {
  name: string;
  description?: string;
  schema: z.ZodType<T>;
  prompt: PromptBuilder;
  builtin: () => T | Promise<T>;
}

export interface TextResult {
  text: string;
  truncated: boolean;
  usage: Usage;
}

/** Fields every AI answer carries: what answered and with which key. */
export interface Answered {
  model: string;
  provider: ModelSource;
  keySource: AiKeySource;
}

const ZERO: Usage = { inputTokens: 0, outputTokens: 0 };

export async function prepareAi(task: AiTask) {
  const resolved = await resolveProvider({ userId: task.actor.user.id, orgId: task.actor.org.id }, { provider: task.provider });
  await assertTokenBudget(task.actor.org, resolved.source);
  return new AiRun(task, resolved);
}

export class AiRun {
  constructor(
    readonly task: AiTask,
    readonly resolved: Resolved,
  ) {}

  get answered(): Answered {
    return { model: this.resolved.model, provider: this.resolved.provider, keySource: this.resolved.source };
  }

  get isBuiltin() {
    return this.resolved.source === "builtin";
  }

  private record(outcome: "ok" | "truncated" | "error" | "aborted" | "invalid", usage: Usage, startedAt: number) {
    return recordCall({
      orgId: this.task.actor.org.id,
      userId: this.task.actor.user.id,
      projectId: this.task.projectId ?? null,
      task: this.task.task,
      provider: this.resolved.provider,
      model: this.resolved.model,
      keySource: this.resolved.source,
      usage,
      outcome,
      startedAt,
    });
  }

  /** Streams text as progress and content events; returns the whole text. Throws ProviderError on failure. */
  async *streamText(spec: TextSpec, signal: AbortSignal): AsyncGenerator<AiEvent, TextResult> {
    const startedAt = performance.now();
    const phase = spec.phase ?? "writing";
    let text = "";
    let reported = 0;
    const progress = (): AiEvent | null => {
      if (!spec.progress) return null;
      const percent = Math.min(99, Math.max(0, Math.round(spec.progress(text))));
      if (percent < reported + 5) return null;
      reported = percent;
      return { type: "progress", phase, percent };
    };
    yield { type: "progress", phase, percent: 0 };

    if (this.resolved.source === "builtin") {
      let whole: string;
      try {
        whole = await spec.builtin();
      } catch (error) {
        await this.record("error", ZERO, startedAt);
        throw error;
      }
      for (const piece of chunkText(whole)) {
        signal.throwIfAborted();
        text += piece;
        yield { type: "content", content: piece };
        const p = progress();
        if (p) yield p;
      }
      await this.record("ok", ZERO, startedAt);
      return { text, truncated: false, usage: ZERO };
    }

    const { credentials, keyId } = this.resolved;
    const request: ModelRequest = { ...built(spec.prompt), signal };
    const filter = spec.filter?.();
    let usage: Usage | null = null;
    let truncated = false;
    let outcome: "ok" | "truncated" | "error" | "aborted" = "error";
    try {
      for await (const chunk of createProviderClient(credentials).stream(request)) {
        if (chunk.type === "end") {
          usage = chunk.usage;
          truncated = chunk.truncated;
          continue;
        }
        const out = filter ? filter.push(chunk.text) : chunk.text;
        if (!out) continue;
        text += out;
        yield { type: "content", content: out };
        const p = progress();
        if (p) yield p;
      }
      const rest = filter?.flush();
      if (rest) {
        text += rest;
        yield { type: "content", content: rest };
      }
      outcome = truncated ? "truncated" : "ok";
      if (keyId) await touchProviderKey(keyId);
      return { text, truncated, usage: usage ?? estimate(request, text) };
    } finally {
      if (outcome === "error" && signal.aborted) outcome = "aborted";
      await this.record(outcome, usage ?? estimate(request, text), startedAt);
    }
  }

  /**
   * Structured output: asks the provider for JSON matching the schema,
   * validates it, and asks once more with the validation errors when it
   * does not match. A second invalid answer is a ProviderError.
   */
  async completeJson<T>(spec: JsonSpec<T>, signal?: AbortSignal): Promise<{ value: T; usage: Usage } & Answered> {
    const startedAt = performance.now();
    if (this.resolved.source === "builtin") {
      let drafted: T;
      try {
        drafted = await spec.builtin();
      } catch (error) {
        await this.record("error", ZERO, startedAt);
        throw error;
      }
      const checked = spec.schema.safeParse(drafted);
      // The drafter's output not matching its own schema is our bug, not the caller's input.
      if (!checked.success) throw new Error(`The offline drafter produced an invalid ${spec.name}: ${checked.error.message}`);
      const value = checked.data;
      await this.record("ok", ZERO, startedAt);
      return { value, usage: ZERO, ...this.answered };
    }
    const { credentials, keyId } = this.resolved;
    const client = createProviderClient(credentials);
    const base = built(spec.prompt);
    const json = { name: spec.name, description: spec.description, schema: jsonSchemaOf(spec.schema) };
    let messages = base.messages;
    const total: Usage = { inputTokens: 0, outputTokens: 0 };
    for (let attempt = 1; ; attempt++) {
      const started = performance.now();
      const request: ModelRequest = { ...base, messages, json, signal };
      let answer;
      try {
        answer = await client.complete(request);
      } catch (error) {
        await this.record(signal?.aborted ? "aborted" : "error", estimate(request, ""), started);
        throw error;
      }
      total.inputTokens += answer.usage.inputTokens;
      total.outputTokens += answer.usage.outputTokens;
      const parsed = parseJsonAnswer(answer.text, spec.schema);
      await this.record(parsed.ok ? "ok" : "invalid", answer.usage, started);
      if (parsed.ok) {
        if (keyId) await touchProviderKey(keyId);
        return { value: parsed.value, usage: total, ...this.answered };
      }
      if (attempt >= 2) {
        throw new ProviderError(credentials.provider, `The AI provider's answer did not match the expected ${spec.name} format, twice (${parsed.error})`);
      }
      messages = [
        ...messages,
        { role: "assistant", content: answer.text },
        {
          role: "user",
          content: `That answer is not valid ${spec.name} JSON: ${parsed.error}. Reply again with only the corrected JSON object.`,
        },
      ];
    }
  }
}

/** The prompt with its output tokens capped by AI_MAX_OUTPUT_TOKENS. */
function built(prompt: PromptBuilder) {
  const request = prompt();
  return { ...request, maxTokens: Math.min(request.maxTokens, config().AI_MAX_OUTPUT_TOKENS) };
}

const estimate = (request: ModelRequest, output: string): Usage => ({
  inputTokens: estimateTokens(request.system) + request.messages.reduce((n, m) => n + estimateTokens(m.content), 0),
  outputTokens: estimateTokens(output),
});

const jsonSchemas = new WeakMap<z.ZodType, Record<string, unknown>>();
/** The JSON Schema of a zod schema, as sent to providers for structured output. */
export function jsonSchemaOf(schema: z.ZodType) {
  let json = jsonSchemas.get(schema);
  if (!json) {
    json = z.toJSONSchema(schema, { io: "output", unrepresentable: "any" }) as Record<string, unknown>;
    delete json.$schema;
    jsonSchemas.set(schema, json);
  }
  return json;
}

export function parseJsonAnswer<T>(text: string, schema: z.ZodType<T>): { ok: true; value: T } | { ok: false; error: string } {
  let data: unknown;
  try {
    data = JSON.parse(stripOuterFence(text));
  } catch {
    return { ok: false, error: "the answer is not parseable JSON" };
  }
  const result = schema.safeParse(data);
  if (result.success) return { ok: true, value: result.data };
  const issues = result.error.issues.slice(0, 5).map((i) => `${i.path.join(".") || "(root)"}: ${i.message}`);
  return { ok: false, error: issues.join("; ") };
}

/** A provider failure as the API reports it: 502 PROVIDER_ERROR. Other errors pass through. */
export function asAppError(error: unknown) {
  if (error instanceof ProviderError) {
    return new AppError("PROVIDER_ERROR", 502, error.message, {
      extra: { provider: error.provider, ...(error.status ? { providerStatus: error.status } : {}) },
    });
  }
  return error;
}

/** Runs a generator to its end and returns its return value (events are dropped). */
export async function drain<T>(run: AsyncGenerator<unknown, T>): Promise<T> {
  for (;;) {
    const next = await run.next();
    if (next.done) return next.value;
  }
}

/** Consumes a producer to its `done` event (non-streaming endpoints and no-JS forms). */
export async function collect(producer: Producer, signal: AbortSignal = new AbortController().signal): Promise<DoneEvent> {
  try {
    for await (const event of producer(signal)) {
      if (event.type === "done") return event;
      if (event.type === "error") throw new AppError("PROVIDER_ERROR", 502, event.message);
    }
  } catch (error) {
    throw asAppError(error);
  }
  throw new AppError("INTERNAL_ERROR", 500, "The AI task ended without a result");
}
