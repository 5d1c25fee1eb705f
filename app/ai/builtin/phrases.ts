import { shorten, words } from "~/utils/md-doc";
import { trimEndWhere } from "~/utils/literal";
import { ROLE } from "./topics";

/**
 * Small sentence tools shared by the interview, the PRD writer, the specs
 * and the launch writer: roles named in a text, "who does what" clauses,
 * requirement sentences turned into story capabilities, and verb forms.
 */

export const ucFirst = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
/** Lower-cases the first letter unless the first word is an acronym or a name-like capital word pair. */
export const lcFirst = (s: string) => (/^[A-Z][A-Z0-9]/.test(s) ? s : s.charAt(0).toLowerCase() + s.slice(1));
/** Trimmed, without trailing punctuation: `/[\s.;:,!?]+$/` cut from the end (the pattern alone is quadratic in a long run of spaces or dots). */
export const trimEnd = (s: string) => trimEndWhere(s.trim(), (c) => /[\s.;:,!?]/.test(c));
export function article(noun: string) {
  if (/^[A-Z]{2,}/.test(noun)) return /^[AEFHILMNORSX]/.test(noun) ? "an" : "a";
  if (/^(?:u(?:s|n[ie]|r)|eu|one)/i.test(noun)) return "a";
  return /^(?:[aeiou]|hour|honest)/i.test(noun) ? "an" : "a";
}

const VAGUE =
  /^(?:not sure|unsure|idk|i don'?t know|dunno|no idea|maybe|n\/a|na|none|nothing|skip|pass|tbd|later|whatever|same|yes|no|ok|okay|\?+(?!\?)|-+)(?:\s+(?:yet|for now|at the moment|right now))?[\s.!?]*$/i;
export const isVague = (answer: string) => VAGUE.test(answer.trim()) || !/[a-z0-9]/i.test(answer);
export const isThin = (answer: string) => isVague(answer) || words(answer).length < 4;

/** Words after a role noun that make it a modifier ("customer data"), not a person. */
const MODIFIED =
  "pii|data|info|information|records?|accounts?|feedback|success|service|experience|journey|base|count|ids?|emails?|names?|lists?|segments?|churn|satisfaction|retention|research|interviews?|tickets?";
const LEAD_ADJ =
  /^(?:wrong|right|same|whole|entire|other|different|new|old|many|few|several|various|certain|specific|both|either|more|most|less|least|such|own|main|every|each|all|any|some|no)$/i;

/**
 * A role with the word before it. The lead word starts only where a run of letters and hyphens starts: without the
 * lookbehind every letter of "a-a-a-…" (each after a word boundary) began a scan to the end of the run.
 */
const ROLES_WITH_LEAD = new RegExp(`(?:\\b(?<![A-Za-z-])([A-Z]{2,}|[A-Za-z-]+)\\s+)?${ROLE.source}(?!\\s+(?:${MODIFIED})\\b)`, "gi");

/** Roles named in a text ("AR clerks", "Finance teams"), first mention of each kind kept. */
export function roles(text: string): string[] {
  const out = new Map<string, string>();
  for (const m of text.matchAll(ROLES_WITH_LEAD)) {
    const noun = singular(m[0].split(/\s+/).at(-1)!.toLowerCase());
    if (out.has(noun)) continue;
    const lead = m[1] && !STOP.has(m[1].toLowerCase()) && !LEAD_ADJ.test(m[1]) && !baseVerb(m[1]) && !/ing$|ly$/.test(m[1]) ? `${m[1]} ` : "";
    out.set(noun, `${lead}${m[0].split(/\s+/).at(-1)!}`);
  }
  return [...out.values()];
}

const STOP = new Set(
  "a an the our their its his her my your this that these those all any some each every no other and or but of for to in on at by with from as is are was were be can could should would will may might must do does did not only also both more most many few who which whose when where how why what than then so if".split(
    " ",
  ),
);

/** The first role of a text, singular and lower-case unless an acronym ("AR clerk"). */
export function persona(text: string): string | undefined {
  const r = roles(text)[0];
  if (!r) return undefined;
  const parts = r.split(" ");
  const last = singular(parts.pop()!.toLowerCase());
  return [...parts.map((p) => (/^[A-Z]{2,}$/.test(p) ? p : p.toLowerCase())), last].join(" ");
}

export function singular(w: string) {
  if (/ies$/.test(w)) return w.replace(/ies$/, "y");
  if (/(ss|sh|ch|x|z)es$/.test(w)) return w.replace(/es$/, "");
  if (/[^s]s$/.test(w) && !/(us|is|ss)$/.test(w)) return w.slice(0, -1);
  return w;
}

const IRREGULAR: Record<string, string> = {
  send: "sent",
  make: "made",
  write: "written",
  see: "seen",
  show: "shown",
  get: "got",
  set: "set",
  find: "found",
  build: "built",
  pay: "paid",
  give: "given",
  take: "taken",
  run: "run",
  read: "read",
  put: "put",
  keep: "kept",
  do: "done",
  hold: "held",
  split: "split",
  upload: "uploaded",
  log: "logged",
  tag: "tagged",
  flag: "flagged",
  plan: "planned",
  stop: "stopped",
  submit: "submitted",
  ship: "shipped",
  drop: "dropped",
  pin: "pinned",
  chat: "chatted",
};
export const VERBS = new Set(
  "send approve reject export import create add edit update delete remove view see show list search filter sort upload download share invite assign schedule remind notify track sync connect generate review comment pay chase flag mark archive cancel book reset configure set log sign record calculate compare publish submit request escalate write read print preview attach merge split tag group rate reply message email follow monitor report manage store save receive get find open close start stop change move replace rename fix resolve prevent detect block allow enable disable access browse select choose collect match reconcile invoice bill charge refund verify check validate import customize filter drag drop undo restore convert translate summarize summarise draft suggest recommend answer ask predict classify score alert display highlight pause resume launch run build ship resend confirm retry forward route text call warn opt".split(
    " ",
  ),
);

/** Base form of a verb as used after "I want to" ("sends" → "send", "approves" → "approve"). */
export function baseVerb(w: string) {
  const l = w.toLowerCase();
  if (VERBS.has(l)) return l;
  for (const cand of [l.replace(/ies$/, "y"), l.replace(/es$/, ""), l.replace(/s$/, ""), l.replace(/ing$/, ""), l.replace(/ing$/, "e")]) {
    if (VERBS.has(cand)) return cand;
  }
  return undefined;
}

export function participle(verb: string) {
  if (IRREGULAR[verb]) return IRREGULAR[verb];
  if (verb.endsWith("e")) return `${verb}d`;
  if (/[^aeiou]y$/.test(verb)) return `${verb.slice(0, -1)}ied`;
  return `${verb}ed`;
}

export interface Capability {
  /** The role named in the sentence, if any. */
  role?: string;
  /** Base verb when the capability starts with a known verb. */
  verb?: string;
  /** What follows the verb (or the whole noun phrase). */
  object: string;
  /** "to send reminders", or a noun phrase. */
  want: string;
  /** The sentence it came from. */
  source: string;
}

/** A requirement without its id and priority markers ("FR-2 (Must): …", "P0 - …", "[Should] …"). */
export function stripMarkers(text: string) {
  return (
    text
      .trim()
      .replace(/^\**(?:FR|NFR|REQ|US|R)-?\d+\**\s*[:.)—–-]?\s*/i, "")
      .replace(/^[([](?:must|should|could|won't|p[0-3]|priority[^)\]]{0,20})[)\]]\s*[:.—–-]?\s*/i, "")
      .replace(/^\**(?:must|should|could|p[0-3])\**\s*[:—–-]\s*/i, "")
      // A trailing marker with the spaces before it; `(?<!\s)` starts the match only where the spaces start (else quadratic in them).
      .replace(/(?<!\s)\s*[([](?:must|should|could|p[0-3])[)\]]\s*$/i, "")
      .replace(/(?<!\s)\s*\(from: [^)]*\)$/i, "")
      .trim()
  );
}
const MODAL =
  "(?:must be able to|should be able to|will be able to|is able to|are able to|needs? to|wants? to|has to|have to|must|should|shall|can|could|will)";
const SYSTEM = "(?:the\\s+)?(?:system|app|application|product|tool|platform|service|it|we)";

/** A requirement sentence as a story capability, or undefined when it names no action. */
export function capabilityOf(sentence: string): Capability | undefined {
  const source = trimEnd(stripMarkers(sentence));
  if (!source) return undefined;
  let m = new RegExp(`^${SYSTEM}\\s+${MODAL}\\s+(?:be able to\\s+)?(.+)$`, "i").exec(source);
  if (m) return fromVerbPhrase(m[1]!, undefined, source, true);
  m = new RegExp(`^(?:(?:a|an|the|each|every|all)\\s+)?((?:[A-Za-z-]+\\s+)?${ROLE.source})\\s+${MODAL}\\s+(.+)$`, "i").exec(source);
  if (m) return fromVerbPhrase(m[2]!, persona(m[1]!), source);
  m = new RegExp(`^${MODAL}\\s+(.+)$`, "i").exec(source);
  if (m) return fromVerbPhrase(m[1]!, undefined, source);
  const first = source.split(/\s+/)[0]!;
  if (VERBS.has(first.toLowerCase())) return fromVerbPhrase(source, undefined, source);
  const actor = actorClauses(source)[0];
  if (actor) return actor;
  // "An LLM classifier reads the ticket …": a part of the product that acts.
  m = /^(?:an?|the)\s+((?:[\w-]+\s+){0,3}?[\w-]+)\s+([a-z]+s)\s+(.+)$/i.exec(source);
  const acting = m ? baseVerb(m[2]!) : undefined;
  if (m && acting) return { verb: acting, object: m[3]!, want: `the ${lcFirst(m[1]!)} to ${acting} ${m[3]}`, source };
  // A noun phrase ("Dashboard of aging buckets"); a clause about something else ("We use …") is no capability.
  if (words(source).length < 2 || words(source).length > 12 || /^(?:we|i|they|it|our|this|that|there)\b/i.test(source)) return undefined;
  return { object: lcFirst(source), want: lcFirst(source), source };
}

function fromVerbPhrase(phrase: string, role: string | undefined, source: string, bySystem = false, afterModal = true): Capability {
  const [head, ...rest] = phrase.trim().split(/\s+/);
  const verb = baseVerb(head ?? "") ?? (afterModal && /^[a-z]+$/.test(head ?? "") && !STOP.has(head!) ? head : undefined);
  const object = rest.join(" ");
  const action = verb ? `${verb}${object ? ` ${object}` : ""}` : lcFirst(phrase);
  return { role, verb, object, want: bySystem ? `the product to ${action}` : `to ${action}`, source };
}

/** What a capability does, without its "to" or acting part ("the product to send …" → "send …"). */
export const actionOf = (cap: Capability) => cap.want.replace(/^(?:the\s+(?:[\w-]+\s+){0,3}?)?to\s+/i, "");

/** "the clerk sends reminders" style clauses: who does what. */
export function actorClauses(text: string): Capability[] {
  const out: Capability[] = [];
  const re = new RegExp(
    `(?:^|[;,.]\\s*|\\b(?:and|while|then)\\s+)(?:(?:the|a|an|each|our)\\s+)?((?:[A-Z]{2,}\\s+)?${ROLE.source})\\s+([a-z]+s)\\b\\s*([^,;.]*)`,
    "gi",
  );
  for (const m of text.matchAll(re)) {
    const verb = baseVerb(m[2]!);
    if (!verb) continue;
    const object = trimEnd(m[3] ?? "");
    out.push({
      role: persona(m[1]!),
      verb,
      object,
      want: `to ${verb}${object ? ` ${object}` : ""}`,
      source: trimEnd(m[0].replace(/^[;,.\s]+|^(?:and|while|then)\s+/i, "")),
    });
  }
  return out;
}

const PREP =
  /^(?:for|to|from|with|in|on|of|by|beside|near|behind|next|when|if|that|which|older|newer|via|into|after|before|so|and|or|over|under|above|below|than|per|at|about|across|between|within|without|through|during|including|like|using|as|once|every|each|automatically|manually)$/i;
const ADJ =
  /(?:ed|ing|ly|ive|al|ous|ful|able|ible|ic|less)$|^(?:new|overdue|unpaid|old|open|all|each|every|other|existing|current|recent|active|daily|weekly|monthly|single|multiple|custom|default|main|basic|simple|full|quick|late|bulk|own|their|its|our|your|my|the|a|an|some|any|more|most|key|top|last|next|first|several|many)$/i;
const FORMAT = /^(?:csv|pdf|report|file|spreadsheet|excel|list|summary|export|overview|view|digest)s?$/i;

/** The words of an object up to its first preposition or figure ("reminder emails for invoices" → reminder, emails). */
export function objectWords(object: string) {
  const out: string[] = [];
  // "show receptionists the status": the people shown to are not the object.
  for (const w of object
    .trim()
    .replace(new RegExp(`^${ROLE.source}\\s+(?=the\\s)`, "i"), "")
    .split(/\s+/)) {
    if (!w || PREP.test(w) || /[\d$%]/.test(w)) break;
    if (/^[a-z][a-z'-]*$/i.test(w)) out.push(w.replace(/'s$/, ""));
  }
  return out.filter((w) => !STOP.has(w.toLowerCase()));
}

/** The object without its qualifiers ("write-offs over $500" → "write-offs"). */
export const thingOf = (object: string) => {
  const ws = object.trim().split(/\s+/);
  const stop = ws.findIndex((w) => PREP.test(w) || /[\d$%]/.test(w));
  return (stop < 0 ? ws : ws.slice(0, stop)).join(" ");
};

/** The head noun of a capability's object ("reminder emails for invoices" → "emails"). */
export const headNoun = (object: string) => objectWords(object).at(-1);

/** The record an action is about, singular: "reminder emails" → "reminder email", "a CSV of overdue invoices" → "invoice". */
export function entityOf(object: string): string | undefined {
  const ws = objectWords(object);
  const head = ws.at(-1);
  if (!head) return undefined;
  if (FORMAT.test(head)) {
    const of = /\b(?:of|for)\s+(.+)$/i.exec(object);
    const inner = of ? entityOf(of[1]!) : undefined;
    if (inner) return inner;
  }
  const prev = ws.at(-2);
  const noun = singular(head.toLowerCase());
  return prev && !ADJ.test(prev) && !VERBS.has(prev.toLowerCase()) ? `${prev.toLowerCase()} ${noun}` : noun;
}

/** Nouns that look like things the product stores (objects of actions, objects of "for/of"). */
export function entityNouns(texts: string[]): string[] {
  const out = new Map<string, string>();
  const add = (w: string | undefined) => {
    if (
      !w ||
      w.length < 3 ||
      STOP.has(w.toLowerCase()) ||
      ADJ.test(w) ||
      /^(?:days?|weeks?|months?|years?|time|hand|way|them|it|things?|data|work|people|today)$/i.test(w)
    )
      return;
    const key = w.includes(" ") ? w : singular(w.toLowerCase());
    if ([...out.keys()].some((k) => k.endsWith(` ${key}`) || key.endsWith(` ${k}`))) return;
    if (!out.has(key) && !ROLE_WORD.test(key)) out.set(key, key);
  };
  for (const t of texts) {
    const cap = capabilityOf(t);
    if (cap?.verb) add(entityOf(cap.object));
    for (const m of t.matchAll(/\b(?:for|of|on|per)\s+(?:(?:the|a|an|each|every|all|unpaid|overdue|new|existing|open)\s+)*([a-z][a-z-]+)/gi)) add(m[1]);
  }
  return [...out.values()];
}
const ROLE_WORD = new RegExp(`^${ROLE.source}$`, "i");

/** PascalCase of a noun ("write-off" → "WriteOff"). */
export const pascal = (s: string) =>
  s
    .split(/[^a-z0-9]+/i)
    .filter(Boolean)
    .map(ucFirst)
    .join("");
export const camel = (s: string) => lcFirst(pascal(s));
/** Plural of a noun phrase's last word ("write-off" → "write-offs", "category" → "categories"). */
export const plural = (noun: string) => {
  // The trailing letters found from the end (`/[a-z]+$/i` retried from every letter of a long word).
  const stem = trimEndWhere(noun, (c) => /[a-z]/i.test(c));
  const w = noun.slice(stem.length);
  if (!w) return noun;
  return stem + (/(s|x|ch|sh)$/i.test(w) ? `${w}es` : /[^aeiou]y$/i.test(w) ? `${w.slice(0, -1)}ies` : `${w}s`);
};
export const kebabPlural = (noun: string) => {
  const n = noun.toLowerCase().replace(/[^a-z0-9]+/g, "-");
  return /(s|x|ch|sh)$/.test(n) ? `${n}es` : /[^aeiou]y$/.test(n) ? `${n.slice(0, -1)}ies` : `${n}s`;
};

/** A clause of a text worth quoting back: its first clause of three words or more, shortened. */
export function quoteClause(text: string, max = 90) {
  const first =
    text
      .replace(/\s+/g, " ")
      .trim()
      .split(/(?<=[.!?])\s+/)[0] ?? "";
  const clauses = first.split(/(?<!\s)\s*[;:—–]\s*|,\s+(?=(?:and|but|so|which|because)\s)|(?<!\s)\s+-\s+/);
  const pick = clauses.find((c) => words(c).length >= 3) ?? first;
  return trimEnd(shorten(pick, max).replace(/…$/, "")) + (pick.length > max ? "…" : "");
}

/** The HTTP method an action maps to (create → POST, view → GET, edit → PATCH, delete → DELETE). */
export function httpMethod(verb: string | undefined) {
  if (!verb) return "POST";
  if (
    /^(view|see|show|list|search|filter|sort|browse|find|get|read|download|export|track|monitor|preview|display|compare|report|check|access|select|choose|open)$/.test(
      verb,
    )
  )
    return "GET";
  if (
    /^(edit|update|change|rename|move|mark|assign|configure|set|customize|enable|disable|pause|resume|flag|tag|rate|restore|reset|approve|reject|resolve|archive|close|verify|validate)$/.test(
      verb,
    )
  )
    return "PATCH";
  if (/^(delete|remove|cancel|drop)$/.test(verb)) return "DELETE";
  return "POST";
}
