import { contentWords, hasVerb } from "~/ai/nlp/words";

/**
 * Conversation is not content (issue 34). A builder answer is talk: "OK so",
 * "to be honest", "good question", "that's about it". Before a statement is
 * written into a PRD, a discourse marker that opens it goes, but only when
 * what remains is still a sentence; a statement that is nothing but talk is
 * not written at all. Qualifiers that carry meaning ("basically done", "not
 * quite ready", "I think", "roughly") are never touched: they are the
 * user's claim, not filler. The patterns are constants, never user text.
 */

/** Markers that open a sentence without saying anything; the ones that are also content words need a comma after them. */
const LEADS: RegExp[] = [
  /^(?:ok(?:ay)?|um+|uh+|erm+|hmm+|ah+|oh)\b[,.!…—–-]*\s*/i,
  /^so\b(?!\s+(?:that|much|many|far|long|the\s+(?:user|team)s?\s+can))[,…—–-]*\s+/i,
  /^(?:well|right|yeah|yes|yep|alright|anyway|anyways|look|like|basically|actually|honestly|frankly|listen)\s*[,…—–]\s*/i,
  /^(?:to be honest|to be fair|tbh|you know|i mean|i guess|let me think|let's see|good question|great question|fair question|that's a good question)\b[,.!…—–-]*\s*/i,
];

/** Whole sentences that are talk about the conversation, not about the product. */
const TALK =
  /^(?:(?:that's|that is|thats) (?:it|all|about it|all i have|all i can think of|a good question)|i (?:guess|think) (?:that's|that is) (?:it|all)|does (?:that|this) make sense|hope (?:that|this) helps|thanks?(?: you)?|cheers|no idea(?: really)?|good question|great question|let me think(?: about (?:it|that))?|hard to say|not much else|nothing else|you know what i mean|sorry,? (?:i'm|i am) rambling)\b[\s.!?,…]*$/i;

/** The sentence without the discourse markers that open it, when what is left is still a sentence; else the sentence as it was. */
/** The text after the discourse markers that open it (four at most: "OK so, well, honestly, …"). */
function afterLeads(text: string): string {
  let rest = text.trim();
  for (let round = 0; round < 4; round++) {
    const lead = LEADS.map((re) => re.exec(rest)).find((m) => m && m[0].length);
    if (!lead) break;
    rest = rest.slice(lead[0].length).trim();
  }
  return rest;
}

export function withoutOpeningTalk(sentence: string): string {
  const rest = afterLeads(sentence);
  if (rest === sentence.trim()) return rest;
  // Only where what remains reads as a statement: three words and a verb, or a list item of its own.
  const words = rest.split(/\s+/).filter(Boolean).length;
  if (words < 3 || !hasVerb(rest)) return sentence.trim();
  return rest.charAt(0).toUpperCase() + rest.slice(1);
}

/** A sentence that is only talk ("Good question.", "Hmm, that's about it.", "I guess that's all"): nothing to write. */
export function isTalk(sentence: string): boolean {
  const rest = afterLeads(sentence);
  if (!rest || /^[\s.!?,…]*$/.test(rest)) return true;
  if (TALK.test(rest)) return true;
  // Nothing left but pronouns, particles and empty verbs ("I mean, you know, it is what it is").
  return contentWords(rest).length === 0 && !/\d/.test(rest);
}
