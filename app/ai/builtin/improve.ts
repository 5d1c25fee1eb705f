import type { ImprovementType } from "../schemas";
import type { BuiltinContext } from "./contract";
import { hasNumber, plainInline, shorten } from "~/utils/md-doc";
import { capitalise, dropFiller, dropRepeatedWords, fixSpacing, fixWords, isPassive, plainWords, splitLong } from "./improve-rules";
import { capabilityOf, headNoun, httpMethod, kebabPlural, persona, singular } from "./phrases";

/**
 * Rule-based rewrites that keep the Markdown structure: headings, list
 * markers, tables, code and links stay where they are. Rewrites change
 * words (typos, filler, jargon); the "add" types append clearly marked
 * prompts under each point instead of inventing facts.
 */

type Rule = "grammar" | "concise" | "simplify" | "split" | "passive" | "detail" | "user" | "metrics" | "technical";

const BASE: Record<ImprovementType, Rule[]> = {
  fix_grammar: ["grammar"],
  make_concise: ["concise"],
  simplify: ["simplify"],
  improve_writing: ["grammar", "concise", "split", "passive"],
  add_detail: ["detail"],
  add_user_focus: ["user"],
  add_metrics: ["metrics"],
  make_technical: ["technical"],
};

const FROM_PROMPT: [RegExp, Rule][] = [
  [/\b(grammar|spelling|typos?|punctuation|proofread)/i, "grammar"],
  [/\b(concise|shorter|short|brief|trim|tighten|wordy)/i, "concise"],
  [/\b(simple|simpler|simplify|plain|jargon|non-technical|layman)/i, "simplify"],
  [/\b(metrics?|kpis?|measur|numbers?|targets?)/i, "metrics"],
  [/\b(?<!non-)(technical|engineer|api|architecture|implementation)/i, "technical"],
  [/\b(users?|customers?|personas?)\b/i, "user"],
  [/\b(detail|specific|elaborate|expand)/i, "detail"],
  [/\b(passive|active voice)/i, "passive"],
];

/**
 * A rule that adds prompts is not asked for by a mention that says to leave
 * the thing alone ("keep the numbers", "don't add metrics"). The rules that
 * remove something are ("no jargon", "keep it short").
 */
const LEAVE_ALONE = /\b(?:don'?t|do not|never|not|no|without|keep|preserve|retain|leave)\b[^,.;!?]*$/i;
const ADDS = new Set<Rule>(["detail", "user", "metrics", "technical"]);

/** The rules a custom instruction asks for (empty when the offline drafter has none for it). */
function rulesFromPrompt(custom: string): Rule[] {
  return FROM_PROMPT.flatMap(([re, rule]) => {
    const g = new RegExp(re.source, `${re.flags.replace("g", "")}g`);
    return [...custom.matchAll(g)].some((m) => !ADDS.has(rule) || !LEAVE_ALONE.test(custom.slice(0, m.index))) ? [rule] : [];
  });
}

const MARKED = /_(?:Metric to define|Timeframe to define|User outcome to state|User focus|Detail to add|Technical detail):_/;
const PROTECTED = /(`[^`]*`|\]\([^)]*\)|<[^<>]+>|https?:\/\/\S+|(?<![\w.+-])[\w.+-]+@[\w-]+\.[\w.]+)/;
const PREFIX = /^(\s*(?:(?:#{1,6}|>)\s*)*(?:(?:[-*+]|\d+[.)])\s+)?(?:\[[ xX]\]\s+)?)(.*)$/;
const ITEM = /^(\s*)(?:[-*+]|\d+[.)])\s+/;

/**
 * The text rewritten by `improvementType`. A custom instruction adds the
 * rules it asks for; one the offline drafter has no rule for ("make it more
 * persuasive") cannot be carried out offline, so the text comes back exactly
 * as it was (the API's `done.changed` is false) rather than rewritten some
 * other way. Nothing about the instruction is written into the text.
 */
export function improve(input: { content: string; improvementType: ImprovementType; customPrompt?: string }, _ctx: BuiltinContext): string {
  if (!input.content.trim()) return input.content;
  const rules = new Set<Rule>(BASE[input.improvementType]);
  const custom = input.customPrompt?.trim();
  if (custom) {
    const asked = rulesFromPrompt(custom);
    if (!asked.length) return input.content;
    for (const rule of asked) rules.add(rule);
  }

  let lines = rewrite(input.content.replace(/\r\n?/g, "\n").split("\n"), rules);
  if (rules.has("concise")) lines = dropRepeats(lines);
  if (rules.has("detail") || rules.has("user") || rules.has("metrics") || rules.has("technical")) lines = addPrompts(lines, rules);

  const body = lines.join("\n").trimEnd();
  return input.content.endsWith("\n") ? `${body}\n` : body;
}

/**
 * Advice about the text that is not part of it, reported beside the rewrite
 * (the stream's `done.notes`), never written into the user's document:
 * passive sentences under "Improve writing" (an instruction asks only for
 * what it names).
 */
export function writingNotes(input: { content: string; improvementType: ImprovementType; customPrompt?: string }): string[] {
  if (input.customPrompt?.trim() || !BASE[input.improvementType].includes("passive")) return [];
  const passive = prose(input.content.replace(/\r\n?/g, "\n").split("\n"))
    .flatMap((t) => t.split(/(?<=[.!?])\s+/))
    .filter(isPassive)
    .slice(0, 3);
  return passive.length ? [`Passive voice in ${passive.map((s) => `“${shorten(s, 80)}”`).join(", ")}: say who acts.`] : [];
}

/** Text lines outside code and tables, markers removed. */
function prose(lines: string[]) {
  let fenced = false;
  return lines.flatMap((l) => {
    if (/^\s*(```|~~~)/.test(l)) fenced = !fenced;
    if (fenced || /^\s*(\||```|~~~|#)/.test(l) || !l.trim() || MARKED.test(l)) return [];
    return [plainInline(PREFIX.exec(l)![2]!)];
  });
}

function rewrite(lines: string[], rules: Set<Rule>) {
  const words = rules.has("grammar") || rules.has("concise") || rules.has("simplify") || rules.has("split");
  if (!words) return lines;
  let fenced = false;
  return lines.map((line) => {
    if (/^\s*(```|~~~)/.test(line)) {
      fenced = !fenced;
      return line;
    }
    if (fenced || !line.trim() || /^\s*\|/.test(line) || (/^\s{4,}\S/.test(line) && !ITEM.test(line)) || /^\s*([-*_])(\s*\1){2,}\s*$/.test(line)) return line;
    const [, prefix, text] = PREFIX.exec(line)!;
    const heading = /#/.test(prefix!);
    const parts = text!.split(PROTECTED);
    const out = parts.map((part, i) => (i % 2 ? part : transform(part, rules, heading, i === 0)));
    return prefix + out.join("");
  });
}

function transform(text: string, rules: Set<Rule>, heading: boolean, atStart: boolean) {
  let t = text;
  if (rules.has("grammar")) t = fixWords(t);
  if (rules.has("concise") && !heading) t = dropRepeatedWords(dropFiller(t));
  if (rules.has("simplify")) t = plainWords(t);
  if ((rules.has("simplify") || rules.has("split")) && !heading) t = splitLong(t);
  // "Make concise" alone never makes a line longer, so it adds no spaces.
  t = fixSpacing(t, !(rules.has("concise") && !rules.has("grammar") && !rules.has("simplify") && !rules.has("split")));
  if (!heading) t = capitalise(t, atStart);
  return t;
}

/** Repeated lines and repeated sentences within a line are dropped (headings, blanks and code stay). */
function dropRepeats(lines: string[]) {
  const seen = new Set<string>();
  let fenced = false;
  const key = (s: string) =>
    s
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, " ")
      .trim();
  return lines.flatMap((line) => {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced || !line.trim() || /^\s*(#|\|)/.test(line)) return [line];
    const [, prefix, text] = PREFIX.exec(line)!;
    const k = key(text!);
    if (k.split(" ").length >= 3 && seen.has(k)) return [];
    seen.add(k);
    const inLine = new Set<string>();
    const kept = text!.split(/(?<=[.!?])\s+/).filter((s) => {
      const sk = key(s);
      if (sk.split(" ").length >= 3 && inLine.has(sk)) return false;
      inLine.add(sk);
      return true;
    });
    return [prefix + kept.join(" ")];
  });
}

const TIMEFRAME =
  /\b(by|within|before|after|per|daily|weekly|monthly|quarterly|yearly|annually|q[1-4]|months?|weeks?|days?|years?|quarters?|sprints?|\d{4}-\d{2})\b/i;

function promptsFor(text: string, rules: Set<Rule>): string[] {
  const t = plainInline(text);
  const out: string[] = [];
  const role = persona(t);
  if (rules.has("detail")) {
    const missing = [
      !role && !/\b(we|team|system|app|service)\b/i.test(t) ? "who does it" : "",
      !TIMEFRAME.test(t) && !/\b(when|every|each time|once|after|as soon as)\b/i.test(t) ? "when or how often" : "",
      !/\b(verif|measur|test|check|confirm|accept|criteri|done when|metric)/i.test(t) ? "how it is verified" : "",
    ].filter(Boolean);
    if (missing.length) out.push(`_Detail to add:_ ${missing.join(", ")}.`);
  }
  if (rules.has("user")) {
    const outcome = /\b(so that|so they|to help|in order to|benefit|saves?|lets? (?:them|users?)|without having to)\b/i.test(t);
    if (!role) out.push("_User focus:_ which user does this serve, and what outcome do they get?");
    else if (!outcome) out.push(`_User outcome to state:_ what does the ${role} get from this?`);
  }
  if (rules.has("metrics")) {
    if (!hasNumber(t)) out.push("_Metric to define:_ baseline → target by <date>.");
    else if (!TIMEFRAME.test(t)) out.push("_Timeframe to define:_ by when should this be true?");
  }
  if (rules.has("technical")) {
    const cap = capabilityOf(t);
    const noun = cap?.verb ? headNoun(cap.object) : undefined;
    const api = noun ? ` (proposed: \`${httpMethod(cap!.verb)} /${kebabPlural(singular(noun))}\`)` : "";
    out.push(`_Technical detail:_ interface${api}, data it reads and writes, limits (volume, latency), and behaviour when it fails.`);
  }
  return out;
}

/** A marked prompt under every list item and paragraph (not in code, tables or Open Questions). */
function addPrompts(lines: string[], rules: Set<Rule>) {
  const out: string[] = [];
  let fenced = false;
  let skip = false;
  let paragraph: string[] = [];
  let count = 0;
  const flush = () => {
    if (paragraph.length && !skip && count < 60) {
      const prompts = promptsFor(paragraph.join(" "), rules);
      if (prompts.length) out.push("", ...prompts), (count += 1);
    }
    paragraph = [];
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*(```|~~~)/.test(line)) flush(), (fenced = !fenced);
    const heading = /^\s*#{1,6}\s+(.*)$/.exec(line);
    const item = ITEM.exec(line);
    if (fenced || /^\s*(```|~~~)/.test(line) || !line.trim() || heading || /^\s*[|>]/.test(line) || MARKED.test(line)) {
      flush();
      if (heading) skip = /open questions?|questions|unknowns/i.test(heading[1]!);
      out.push(line);
      continue;
    }
    if (!item) {
      if (/^\s{2,}\S/.test(line) && out.length && ITEM.test(out.at(-1) ?? "")) out.push(line);
      else paragraph.push(line), out.push(line);
      continue;
    }
    flush();
    const indent = item[1]!;
    let text = line.slice(item[0].length);
    out.push(line);
    while (i + 1 < lines.length && /^\s{2,}\S/.test(lines[i + 1]!) && !ITEM.test(lines[i + 1]!)) (text += ` ${lines[++i]!.trim()}`), out.push(lines[i]!);
    if (skip || count >= 60) continue;
    const prompts = promptsFor(text, rules);
    if (prompts.length) count += 1;
    for (const p of prompts) out.push(`${indent}  - ${p}`);
  }
  flush();
  if (!count && !lines.some((l) => MARKED.test(l))) out.push("", ...promptsFor("", rules));
  return out;
}
