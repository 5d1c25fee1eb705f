import { z } from "zod/v4";

/** Response pieces shared by the AI contracts (documentation only). */

export const answeredShape = {
  model: z.string().describe('The model that answered, or "builtin" for the offline drafter'),
  provider: z.enum(["provider_a", "provider_b", "provider_c", "builtin"]),
  keySource: z.enum(["personal", "organization", "platform", "builtin"]),
};

export const SSE_DESCRIPTION =
  "Answers `text/event-stream`: `data: <json>` events of type `progress` ({phase, percent}), `content` ({content}; the chunks concatenate in order) and finally `done` ({fullContent, model, provider, keySource, truncated, …}) — or `error` ({message, code: GENERATION_ERROR}) after which the stream ends and nothing is saved. `truncated: true` means the model hit its output limit. Validation, access and plan errors are answered as JSON before the stream starts. Closing the connection cancels the provider call.";

export const AI_ERRORS = ["VALIDATION_ERROR", "RATE_LIMITED", "LIMIT_REACHED", "PROVIDER_ERROR"] as const;
