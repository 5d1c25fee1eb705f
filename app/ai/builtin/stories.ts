import { words } from "~/utils/md-doc";
import { type Capability, actionOf, article, baseVerb, lcFirst, participle, persona, singular, stripMarkers, thingOf, trimEnd, ucFirst } from "./phrases";
import { foldCase, hasWord } from "~/utils/literal";
import { storyPersona } from "./personas";
import { ROLE } from "./topics";

/**
 * User stories from requirements: who wants it is the persona
 * the requirement names ("Let the patient confirm …" is the patient's
 * story, "Show receptionists …" the receptionists'), else the primary
 * persona; the "I want" clause is the requirement's own verb phrase, and the
 * acceptance criteria are built from its own words: the outcome, each
 * alternative it offers, its timing, its limits and who it leaves alone.
 * Used by the PRD writer and the user-story tool.
 */

/** The fullest name of a role among the named personas ("clerk" → "AR clerk"), singular. */
export function richer(role: string | undefined, personas: string[]) {
  if (!role) return undefined;
  const noun = singular(role.split(" ").at(-1)!.toLowerCase());
  const match = personas.find((p) => headOf(p) === noun) ?? role;
  return storyPersona(match) ?? persona(match) ?? match;
}

const ROLE_ONE = new RegExp(ROLE.source, "i");

/** The singular role noun of a persona ("front-desk receptionists" → "receptionist"). */
function headOf(name: string) {
  const m = ROLE_ONE.exec(name);
  return singular((m?.[0] ?? name.split(" ").at(-1)!).toLowerCase());
}

/** "so that …" from a goal sentence, or a placeholder to confirm. */
export function benefitOf(goal: string | undefined) {
  if (!goal) return "[benefit to confirm]";
  const g = lcFirst(trimEnd(goal.replace(/^[A-Z][\w -]{0,20}:\s+/, "")));
  return /^(?:cut|reduce|increase|raise|grow|improve|lower|decrease|lift|boost|get|make|save|stop|help|keep|double|halve)\b/i.test(g) ? `we ${g}` : g;
}

/** The goal that shares most words with a requirement (the first goal on a tie). */
export function pickGoal(requirement: string, goals: string[]) {
  const req = new Set(words(requirement).filter((w) => w.length > 3));
  let best = goals[0];
  let score = 0;
  for (const g of goals) {
    const s = words(g).filter((w) => req.has(w)).length;
    if (s > score) (best = g), (score = s);
  }
  return best;
}

/** Verbs the product performs on its own: the story asks the product to do them. */
const SYSTEM_VERB =
  /^(?:send|resend|remind|notify|alert|stop|sync|generate|calculate|detect|block|prevent|track|log|record|store|schedule|match|reconcile|charge|refund|retry|escalate|route|forward|archive|flag|mark|classify|score|predict|summarize|summarise|suggest|recommend|validate|verify|check|highlight|pause|resume|publish|email|text|call)$/i;
/** Verbs whose input can be missing or wrong: they get a criterion for that. */
const INPUT_VERB = /^(?:create|add|edit|update|submit|book|upload|import|enter|save|request|invite|configure|set|change|rename|reply)$/i;
const SEE_VERB = /^(?:show|display)$/i;
const TOLD_VERB = /^(?:notify|alert|remind|tell|warn)$/i;
const GET_VERB = /^(?:give|send|email|text)$/i;
const ROLE_PHRASE = `((?:[a-z][\\w-]*\\s+){0,2}?${ROLE.source})`;
const LET = new RegExp(`^(?:let|allow|enable|help)\\s+(?:the\\s+|a\\s+|an\\s+|each\\s+|every\\s+|our\\s+)?${ROLE_PHRASE}\\s+(?:to\\s+)?(.+)$`, "i");
const TO_ROLE = new RegExp(
  `^(show|display|notify|alert|remind|tell|warn|give|send|email|text)\\s+(?:the\\s+|each\\s+|every\\s+|all\\s+)?${ROLE_PHRASE}\\s+(.+)$`,
  "i",
);
const TIME_BEFORE = /\b(\d+(?:[.,]\d+)?\s+(?:minutes?|hours?|days?|weeks?))\s+(before|after|ahead of)\s+(?:each\s+|every\s+|the\s+|an?\s+)?([a-z][\w-]*)/i;
const WITHIN = /\bwithin\s+(\d+(?:[.,]\d+)?\s+(?:seconds?|minutes?|hours?|days?|weeks?))/i;
const BOUNDARY = /\b(?:older than|newer than|more than|less than|fewer than|at least|at most|over|under|above|below|up to)\s+[^,.;]+/i;
const POSTNOMINAL = /^(?:over|under|above|below|older|newer|more|less|fewer|at least|at most|up to|of|for|who|that|which|with|from)\b/i;
const WHO_CLAUSE = /\bfor\s+((?:[a-z][\w-]*\s+){0,2}?[a-z][\w-]*)\s+(?:who|that|whose)\s+([^,.;]+)/i;

export interface Story {
  title: string;
  who: string;
  asA: string;
  criteria: string[];
}

interface Parsed {
  who?: string;
  /** The "I want" clause ("to confirm or cancel by replying C or X", "the product to send …"). */
  want: string;
  /** What happens, as the verb and its object (the subject of the criteria). */
  verb?: string;
  object: string;
  bySystem: boolean;
}

/** The persona whose role noun the text names (singular or plural), matched as a word, never as a pattern. */
const mentioned = (text: string, personas: string[]) => personas.find((p) => hasWord(text, headOf(p), ["s", "es"]));

const FOR_LEAD = new Set(["the", "each", "all"]);
const isToken = (w: string) => /^[\w-]+$/.test(w);

/**
 * The object without a trailing "for [the|each|all] [word] <persona>" ("… as a CSV file for the
 * clinic manager" → "… as a CSV file"): what
 * `object.replace(/\s+for\s+(?:the\s+|each\s+|all\s+)?(?:[\w-]+\s+)?<head>s?$/i, "")` did, with the
 * persona's head noun compared as text.
 */
function withoutForWho(object: string, head: string) {
  const lower = foldCase(object);
  const name = lower.endsWith(`${head}s`) ? `${head}s` : lower.endsWith(head) ? head : null;
  if (!name || !head) return object;
  const before = object.slice(0, object.length - name.length);
  if (!/\s$/.test(before)) return object;
  // The words before the head, last first, each with where its leading whitespace starts.
  const tokens: { word: string; gap: number }[] = [];
  let end = before.length;
  while (tokens.length < 3) {
    let wordEnd = end;
    while (wordEnd > 0 && /\s/.test(before[wordEnd - 1]!)) wordEnd--;
    let start = wordEnd;
    while (start > 0 && !/\s/.test(before[start - 1]!)) start--;
    let gap = start;
    while (gap > 0 && /\s/.test(before[gap - 1]!)) gap--;
    if (start === wordEnd || gap === start) break;
    tokens.push({ word: before.slice(start, wordEnd).toLowerCase(), gap });
    end = start;
  }
  const [t1, t2, t3] = tokens;
  // The leftmost reading wins, as it would for the pattern: "for the <word> <head>" before "for <head>".
  if (t1 && t2 && t3 && isToken(t1.word) && FOR_LEAD.has(t2.word) && t3.word === "for") return object.slice(0, t3.gap);
  if (t1 && t2 && (FOR_LEAD.has(t1.word) || isToken(t1.word)) && t2.word === "for") return object.slice(0, t2.gap);
  if (t1 && t1.word === "for") return object.slice(0, t1.gap);
  return object;
}

/** The requirement read as who wants what, from its own words. */
function parse(cap: Capability, personas: string[]): Parsed {
  const source = trimEnd(stripMarkers(cap.source));
  let m = LET.exec(source);
  if (m) {
    const [verb, ...rest] = m[2]!.split(/\s+/);
    return { who: m[1], want: `to ${m[2]}`, verb: baseVerb(verb!) ?? verb!.toLowerCase(), object: rest.join(" "), bySystem: false };
  }
  m = TO_ROLE.exec(source);
  if (m) {
    const verb = m[1]!.toLowerCase();
    const rest = m[3]!;
    if (SEE_VERB.test(verb)) return { who: m[2], want: `to see ${rest}`, verb: "show", object: rest, bySystem: true };
    if (TOLD_VERB.test(verb)) return { who: m[2], want: `to be ${participle(verb)} ${rest}`, verb, object: rest, bySystem: true };
    if (GET_VERB.test(verb)) return { who: m[2], want: `to receive ${rest}`, verb: "send", object: rest, bySystem: true };
  }
  const who = cap.role ?? mentioned(source, personas);
  if (cap.verb && SYSTEM_VERB.test(cap.verb) && (!cap.role || /^the\s/.test(cap.want))) {
    return { who, want: `the product to ${cap.verb} ${cap.object}`.trim(), verb: cap.verb, object: cap.object, bySystem: true };
  }
  // "Export the week's no-shows as a CSV file for the clinic manager": the manager wants to export them.
  const object = who ? withoutForWho(cap.object, headOf(who)) : cap.object;
  const want = cap.want.startsWith("to ") && cap.verb ? `to ${cap.verb}${object ? ` ${object}` : ""}` : cap.want;
  return { who, want, verb: cap.verb, object, bySystem: /^the\s/.test(cap.want) };
}

/** "an SMS reminder" → "no SMS reminder"; "reminders" → "no reminders". */
const none = (thing: string) => `no ${thing.replace(/^(?:an?|the|each|every|all)\s+/i, "")}`;
const isPlural = (thing: string) => /s$/i.test(thing.split(/\s+/).at(-1) ?? "") && !/^(?:an?|each|every)\s/i.test(thing);
const be = (thing: string) => (isPlural(thing) ? "are" : "is");

/** Acceptance criteria from the requirement's own words. */
function criteriaOf(p: Parsed, who: string, product: string, terse: boolean): string[] {
  const out: string[] = [];
  const verb = p.verb;
  const thing = thingOf(p.object).trim() || p.object;
  const rest = p.object.slice(thing.length).trim();
  const iAm = `Given I am ${article(who)} ${who}`;
  // The alternatives the requirement offers ("confirm or cancel …"): each must work on its own.
  const alt = /^([a-z]+)\s+or\s+([a-z]+)\b\s*(.*)$/i.exec(p.want.replace(/^to\s+/, ""));
  if (!p.bySystem && alt && (baseVerb(alt[1]!) || baseVerb(alt[2]!)) && !/^(?:the|a|an|not|more|less)$/i.test(alt[2]!)) {
    for (const v of [alt[1]!, alt[2]!]) out.push(`${iAm}, When I ${v}${alt[3] ? ` ${alt[3]}` : ""}, Then my choice to ${v} is recorded and shown to me.`);
  } else if (verb === "show" || verb === "see" || verb === "view") {
    out.push(`${iAm}, When I open ${product}, Then I see ${p.object}.`);
  } else if (verb && thing) {
    // "write-offs over $500 are approved" (the rest qualifies the thing); "a reminder is sent 48 hours before" (it says when or how).
    const done = POSTNOMINAL.test(rest)
      ? `${ucFirst(thing)} ${rest} ${be(thing)} ${participle(verb)}`
      : `${ucFirst(thing)} ${be(thing)} ${participle(verb)}${rest ? ` ${rest}` : ""}`;
    const time = TIME_BEFORE.exec(p.object);
    if (p.bySystem && time && time[2]!.toLowerCase() !== "after") {
      const what = time[3]!;
      out.push(`Given ${article(what)} ${what} ${time[1]} away, Then ${lcFirst(thing)} ${be(thing)} ${participle(verb)}.`);
      out.push(`Given ${article(what)} ${what} more than ${time[1]} away, Then ${none(thing)} ${be(thing)} ${participle(verb)} yet.`);
    } else if (p.bySystem) out.push(`${done}.`);
    else out.push(`${iAm}, When I ${verb}${p.object ? ` ${p.object}` : ""}, Then ${lcFirst(done)}.`);
  } else {
    out.push(`${iAm}, When I use ${product} for this, Then ${lcFirst(trimEnd(p.want.replace(/^to\s+/, "")))} is possible.`);
  }
  const within = WITHIN.exec(p.object);
  if (within && verb) out.push(`It happens within ${within[1]}; anything slower is a failure.`);
  const limit = BOUNDARY.exec(p.object);
  if (limit && verb && thing && !TIME_BEFORE.test(p.object)) {
    // What the limit is about: the noun just before it ("reminder emails for invoices older than 90 days" → invoices).
    const before = p.object.slice(0, limit.index).trim();
    const subject = /\b(?:for|of|on|with|to)\s+(.+)$/i.exec(before)?.[1] ?? (before || thing);
    out.push(
      `${ucFirst(subject)} that ${isPlural(subject) ? "are" : "is"} not ${trimEnd(limit[0])} ${subject === thing || subject === before ? "are outside this story" : `get ${none(thing)}`}.`,
    );
  }
  const whom = WHO_CLAUSE.exec(p.object);
  if (whom && verb && /^(?:stop|block|prevent|skip|exclude|hide|pause)$/.test(verb)) {
    out.push(`${ucFirst(thing)} for all other ${whom[1]} continue${isPlural(thing) ? "" : "s"} as before.`);
  }
  if (!terse && verb && INPUT_VERB.test(verb) && !p.bySystem) {
    out.push(`${iAm}, When I try to ${verb} with required information missing or invalid, Then I see what to fix and nothing is saved.`);
  }
  return out;
}

/** Title, "As a …" line and acceptance criteria of one story. */
export function story(cap: Capability, opts: { personas: string[]; goals: string[]; product: string; terse?: boolean }): Story {
  const p = parse(cap, opts.personas);
  const who = richer(p.who, opts.personas) ?? (opts.personas[0] ? storyPersona(opts.personas[0]) : undefined) ?? "user";
  const title = ucFirst(actionOf({ ...cap, want: p.want }));
  return {
    title: title.length > 70 ? `${title.slice(0, 67)}…` : title,
    who,
    asA: `As ${article(who)} ${who}, I want ${p.want}, so that ${benefitOf(pickGoal(cap.source, opts.goals))}`,
    criteria: criteriaOf(p, who, opts.product, Boolean(opts.terse)),
  };
}
