import { contentWords, tokens } from "~/ai/nlp/words";
import { quoteClause } from "./phrases";

/**
 * Contradictions in what the user said (issue 34): the same quantity given
 * different values ("48 hours before" and later "24 hours before" for the
 * same reminder), or "never" against "unless" about the same action. Each
 * becomes one open question quoting every side, which the builder asks
 * before generation. The patterns are constants, never user text.
 */

export interface Contradiction {
  /** The statements that disagree, as the user wrote them. */
  quotes: string[];
  /** The question that settles it. */
  question: string;
}

const UNITS: [RegExp, string][] = [
  [/^(?:%|percent|per cent)$/i, "%"],
  [/^(?:ms|milliseconds?)$/i, "ms"],
  [/^(?:s|secs?|seconds?)$/i, "s"],
  [/^(?:mins?|minutes?)$/i, "min"],
  [/^(?:h|hrs?|hours?)$/i, "h"],
  [/^days?$/i, "day"],
  [/^weeks?$/i, "week"],
  [/^months?$/i, "month"],
  [/^(?:eur|euros?|usd|dollars?|gbp|pounds?|€|\$|£)$/i, "money"],
];
/** Words that make a second value a second thing ("a second reminder 2 hours before"), not another value of the same. */
const ANOTHER = /\b(?:second|third|another|also|additional|extra|first|final|last|both|then|after that|later|followed by|except|instead)\b/i;

interface Quantity {
  value: number;
  unit: string;
  text: string;
  words: Set<string>;
}

/** A statement's one quantity of a unit, when it has exactly one. */
function quantityOf(text: string): Quantity | undefined {
  const found: { value: number; unit: string }[] = [];
  const ts = tokens(text);
  for (let i = 0; i < ts.length; i++) {
    const raw = ts[i]!.text.replace(/,/g, "");
    const glued = /^(\d+(?:\.\d+)?)([a-z%]+)$/i.exec(raw);
    const value = glued ? Number(glued[1]) : /^\d+(?:\.\d+)?$/.test(raw) ? Number(raw) : Number.NaN;
    if (Number.isNaN(value)) continue;
    const unitWord = glued?.[2] ?? ts[i + 1]?.text ?? "";
    const before = ts[i - 1]?.text ?? "";
    const unit = UNITS.find(([re]) => re.test(unitWord))?.[1] ?? UNITS.find(([re]) => re.test(before))?.[1];
    if (unit) found.push({ value, unit });
  }
  if (found.length !== 1) return undefined;
  const numbers = new Set(found.map((f) => String(f.value)));
  return { ...found[0]!, text, words: new Set(contentWords(text).filter((w) => !numbers.has(w.replace(/,/g, "")) && !/^\d/.test(w))) };
}

const shared = (a: Set<string>, b: Set<string>) => [...a].filter((w) => b.has(w)).length;

/** Same quantity, different values: statements with one value of one unit, sharing two content words, none of them "a second …". */
function differentValues(statements: string[]): Contradiction[] {
  const qs = statements.filter((s) => !ANOTHER.test(s)).flatMap((s) => quantityOf(s) ?? []);
  const out: Contradiction[] = [];
  const used = new Set<Quantity>();
  for (const q of qs) {
    if (used.has(q)) continue;
    const group = [q, ...qs.filter((o) => o !== q && !used.has(o) && o.unit === q.unit && shared(o.words, q.words) >= 2)];
    if (new Set(group.map((g) => g.value)).size < 2) continue;
    for (const g of group) used.add(g);
    const quotes = group.slice(0, 3).map((g) => g.text);
    out.push({
      quotes,
      question: `You gave different values for the same thing: ${quotes.map((t) => `“${quoteClause(t, 100)}”`).join(" and ")}. Which one holds?`,
    });
  }
  return out;
}

const NEVER = /\b(?:never|must not|mustn't|cannot|can't|may not|is not allowed to|are not allowed to|no one can|nobody can)\b/i;
const UNLESS = /\b(?:unless|except when|except if|except for|only if|only when|but if)\b/i;

/** "never" against "unless" about one action: a statement of each kind sharing its verb and another content word. */
function neverUnless(statements: string[]): Contradiction[] {
  const out: Contradiction[] = [];
  const nevers = statements.filter((s) => NEVER.test(s) && !UNLESS.test(s));
  const unlesses = statements.filter((s) => UNLESS.test(s));
  for (const n of nevers) {
    const nWords = new Set(contentWords(n));
    const nVerbs = new Set(
      tokens(n)
        .filter((t) => t.pos === "VERB")
        .map((t) => t.lemma),
    );
    const u = unlesses.find((s) => {
      // The never-statement's verb, in whatever part of speech the tagger reads it here ("Share data …" opens a sentence).
      const verbs = tokens(s).filter((t) => nVerbs.has(t.lemma));
      return verbs.length > 0 && shared(new Set(contentWords(s)), nWords) >= 2;
    });
    if (u)
      out.push({
        quotes: [n, u],
        question: `You said “${quoteClause(n, 100)}” and also “${quoteClause(u, 100)}”. Which holds, and if there is an exception, when exactly?`,
      });
  }
  return out;
}

export function contradictions(statements: string[]): Contradiction[] {
  return [...differentValues(statements), ...neverUnless(statements)];
}

const ASKING = ["You gave different values for the same thing:", "You said “"];

/** Is this one of the questions above, asked by the builder to settle a contradiction? */
export const isSettlingQuestion = (question: string) => ASKING.some((p) => question.trim().startsWith(p));

export interface Settled {
  /** Contradictions nobody has answered yet: asked next, and listed as open questions. */
  open: Contradiction[];
  /** The statements an answer ruled out ("48 hours is right" rules out the 24 and 72). */
  ruledOut: string[];
  /** What each settling question was answered, for the PRD's Clarifications list. */
  clarifications: { question: string; answer: string }[];
}

/**
 * The contradictions in `statements`, minus those a settling question has
 * answered. An answer that names one side's number keeps that side; the
 * others are ruled out. Any other answer is kept as a clarification.
 */
export function settle(statements: string[], answered: { question: string; answer: string }[]): Settled {
  const open: Contradiction[] = [];
  const ruledOut: string[] = [];
  const clarifications: Settled["clarifications"] = [];
  for (const c of contradictions(statements)) {
    const reply = answered.find((a) => c.quotes.some((q) => a.question.includes(`“${quoteClause(q, 100)}”`)));
    if (!reply) {
      open.push(c);
      continue;
    }
    clarifications.push({ question: reply.question, answer: reply.answer.trim() });
    const numbers = (t: string) => new Set(t.replace(/,/g, "").match(/\d+(?:\.\d+)?/g) ?? []);
    const said = numbers(reply.answer);
    const kept = c.quotes.filter((q) => [...numbers(q)].some((n) => said.has(n)));
    if (kept.length && kept.length < c.quotes.length) ruledOut.push(...c.quotes.filter((q) => !kept.includes(q)));
  }
  return { open, ruledOut, clarifications };
}
