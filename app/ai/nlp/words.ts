import { nlp } from "./engine";

/**
 * Words as the NLP library reads them (parts of speech and lemmas from
 * wink-eng-lite-web-model): what a sentence is about, and whether it is a
 * sentence at all. Only the offline drafter's worker threads call these.
 */

const CONTENT = new Set(["NOUN", "PROPN", "VERB", "ADJ", "NUM"]);
/** Verbs that say nothing about a product by themselves ("I guess", "you know", "let me think"). */
const EMPTY_VERBS = new Set([
  "be",
  "do",
  "have",
  "think",
  "guess",
  "know",
  "mean",
  "say",
  "let",
  "see",
  "get",
  "go",
  "make",
  "want",
  "need",
  "like",
  "sound",
  "hope",
  "help",
  "thank",
  "ask",
]);

/** Nouns too common to tie a sentence to a project ("next month", "a lot of things"). */
const GENERIC = new Set([
  "month",
  "week",
  "day",
  "year",
  "time",
  "thing",
  "way",
  "lot",
  "people",
  "today",
  "tomorrow",
  "yesterday",
  "morning",
  "night",
  "bit",
  "stuff",
  "kind",
  "sort",
  "minute",
  "hour",
  "moment",
]);

export interface Token {
  text: string;
  lemma: string;
  pos: string;
  stop: boolean;
  negated: boolean;
}

export function tokens(text: string): Token[] {
  const { its } = nlp();
  const doc = nlp().readDoc(text);
  const t = doc.tokens();
  const texts = t.out(its.value) as string[];
  // The lemma function takes the model's add-ons; its published type does not say so.
  const lemmas = t.out(its.lemma as unknown as typeof its.value) as string[];
  const pos = t.out(its.pos) as string[];
  const stop = t.out(its.stopWordFlag) as unknown as boolean[];
  const negated = t.out(its.negationFlag) as unknown as boolean[];
  return texts.map((value, i) => ({
    text: value,
    lemma: (lemmas[i] ?? value).toLowerCase(),
    pos: pos[i] ?? "X",
    stop: Boolean(stop[i]),
    negated: Boolean(negated[i]),
  }));
}

/** The lemmas a text is about: its nouns, names, verbs, adjectives and numbers, without stop words, empty verbs and everyday nouns. */
export function contentWords(text: string): string[] {
  return tokens(text)
    .filter((t) => CONTENT.has(t.pos) && !t.stop && t.lemma.length > 1 && !(t.pos === "VERB" && EMPTY_VERBS.has(t.lemma)) && !GENERIC.has(t.lemma))
    .map((t) => t.lemma);
}

/** Does the text have a verb (a clause, not only a phrase)? */
export const hasVerb = (text: string) => tokens(text).some((t) => t.pos === "VERB" || t.pos === "AUX");
