import { contentWords } from "~/ai/nlp/words";
import { ucFirst } from "./phrases";

/**
 * What the user takes back (issue 34). "Scratch that" removes the statement
 * before it; "let's not do the waitlist", "forget about SMS", "drop the
 * export" remove what they name, wherever it was said, and become a
 * decision; "actually, email instead of SMS" removes what it replaces and
 * keeps the rest. The patterns are constants, never user text.
 */

export type Retraction =
  /** Takes back the statement just before; `rest` is what replaces it, if anything. */
  | { kind: "previous"; rest?: string }
  /** Takes back what `subject` names; `rest` is what is said instead, if anything. */
  | { kind: "subject"; subject: string; rest?: string };

const PREVIOUS =
  /^(?:scratch that|strike that|forget that|ignore that|never ?mind(?: that)?|no wait|wait,? no|delete that|cancel that|take that back|i take that back)\b[\s,.;:!—–-]*/i;
const VERB = "(?:do|build|include|add|support|offer|ship|have|make|keep|use|bother with)";
const DET = "(?:the |a |an |any |that |this )?";
/** "Let's not do the waitlist", "forget about SMS", "we no longer need the export". */
const SUBJECT = new RegExp(
  `^(?:actually,?\\s+|ok(?:ay)?,?\\s+|so,?\\s+)?(?:let's not|let us not|forget(?: about)?|we no longer (?:want|need)(?: to)?|don't bother with|do not bother with|no need for|no need to)\\s+(?:${VERB}\\s+)?${DET}(.+?)(?:\\s+(?:either|too|as well))?(?:\\s+after all|\\s+for now|\\s+anymore|\\s+any more)?[.!]?$`,
  "i",
);
/** "We won't need the waitlist after all": a negation is a retraction only with "after all" or "anymore". */
const NO_LONGER = new RegExp(
  `^(?:actually,?\\s+)?we (?:won't|will not|don't|do not) (?:need|want|do|build|include|add|support|have)(?: to ${VERB})?\\s+${DET}(.+?)\\s+(?:after all|anymore|any more)[.!]?$`,
  "i",
);
const INSTEAD = /^(?:actually|on second thought|thinking about it|no),?\s+(.+?)\s+instead of\s+(?:the |a |an )?(.+?)[.!]?$/i;
const INSTEAD_PREVIOUS = /^(?:actually|on second thought|thinking about it),?\s+(.+?),?\s+instead[.!]?$/i;

export function retractionOf(sentence: string): Retraction | undefined {
  const text = sentence.trim();
  const previous = PREVIOUS.exec(text);
  if (previous) {
    const rest = text.slice(previous[0].length).trim();
    return { kind: "previous", rest: rest && contentWords(rest).length ? ucFirst(rest) : undefined };
  }
  const instead = INSTEAD.exec(text);
  if (instead) return { kind: "subject", subject: instead[2]!, rest: `${ucFirst(instead[1]!)}.` };
  const insteadPrevious = INSTEAD_PREVIOUS.exec(text);
  if (insteadPrevious) return { kind: "previous", rest: `${ucFirst(insteadPrevious[1]!)}.` };
  const subject = SUBJECT.exec(text) ?? NO_LONGER.exec(text);
  // A short subject only: a long one is a sentence of its own, not a name for something said before.
  if (subject && contentWords(subject[1]!).length > 0 && subject[1]!.split(/\s+/).length <= 6) return { kind: "subject", subject: subject[1]! };
  return undefined;
}

/** Does `statement` speak of what `subject` names: every content word of the subject is in it? */
export function mentions(statement: string, subject: string): boolean {
  const wanted = contentWords(subject);
  if (!wanted.length) return false;
  const have = new Set(contentWords(statement));
  return wanted.every((w) => have.has(w));
}
