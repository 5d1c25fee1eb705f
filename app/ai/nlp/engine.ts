import { createRequire } from "node:module";
import type { Model, WinkMethods } from "wink-nlp";

/**
 * The NLP library the offline drafter reads text with: wink-nlp with its
 * English lite model (wink-eng-lite-web-model, in its package: no download,
 * no network). docs/ai.md, "Reading text", says why this one (sentence
 * boundaries, speed) and what it costs: about 300 ms and 57 MB of memory to
 * load, so it is loaded on first use, and only the offline drafter's worker
 * threads use it (app/ai/builtin/offline-pool.server.ts), never the server's
 * own thread.
 */

let engine: WinkMethods | undefined;

export function nlp(): WinkMethods {
  if (!engine) {
    const require = createRequire(import.meta.url);
    const winkNLP = require("wink-nlp") as (model: Model, pipe?: string[]) => WinkMethods;
    engine = winkNLP(require("wink-eng-lite-web-model") as Model, ["sbd", "negation", "pos"]);
  }
  return engine;
}
