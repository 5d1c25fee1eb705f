import type { MemoryCandidate, MemoryCategory, MemoryType } from "../schemas";
import type { ChatMessage } from "../types";
import type { BuiltinContext } from "./contract";
import { shorten, words } from "~/utils/md-doc";
import { proseSentences as sentences } from "~/ai/nlp/sentences";
import { trimEndWhere } from "~/utils/literal";
import { ucFirst } from "./phrases";

/**
 * Durable statements in a conversation: the user's preferences, decisions,
 * project context and feedback, each kept in the user's own words (cleaned
 * up), classified, and weighted by how strongly it was said.
 */

const MAX = 20;

const DOC =
  "(?:prds?|documents?|docs?|specs?|stories|sections?|bullets?|tables?|answers?|outputs?|it|them|things|more|less|short|concise|the (?:prd|document|doc|spec|output|answers?|summary))";
const PATTERNS: [MemoryType, RegExp][] = [
  [
    "decision",
    /\b(?:we|i)(?:'ve| have)? (?:decided|agreed|chose|chosen|picked|selected|settled on|committed to)\b|\b(?:we|i)(?:'ll| will| are going to|'re going to| shall) (?:use|go with|build|adopt|launch|ship|switch|move|standardi[sz]e on|support|target|drop|keep|stick with)\b|\bwe(?:'re| are) (?:going with|switching to|moving to|standardi[sz]ing on)\b|\bthe decision (?:is|was)\b|\blet's (?:go with|use|stick with)\b|\bdecision:/i,
  ],
  [
    "feedback",
    /\btoo (?:long|short|vague|verbose|wordy|generic|technical|detailed|formal|casual|much|little)\b|\bnext time\b|^(?:please )?(?:don't|do not|stop)\b|\b(?:that|this|it) (?:was|is|wasn't|isn't) (?:great|perfect|helpful|useful|useless|wrong|off|not helpful|not useful)\b|\b(?:i|we) (?:liked|loved|didn't like|hated|don't like)\b/i,
  ],
  [
    "preference",
    new RegExp(
      `\\b(?:i|we) (?:prefer|like|love|'d like|would like)\\b|\\b(?:i|we) want ${DOC}\\b|\\bplease (?:always|never|keep|use|write|make|avoid|include|add|put)\\b|^(?:always|never)\\b|\\bkeep ${DOC} \\w+|\\b(?:i|we) always\\b`,
      "i",
    ),
  ],
  [
    "project_context",
    /\bwe(?:'re| are)? (?:use|using|build|building|sell|selling|serve|serving|have|run|work with)\b|\bour (?:team|company|stack|product|customers|users|org|organization|startup|engineers|backend|frontend|clients|platform|app|business|market)\b|\bwe(?:'re| are) an? \w+|\bi(?:'m| am) (?:a|an|the) (?:pm|product manager|founder|cto|ceo|engineer|designer|lead)\b|\bi work (?:at|for|on)\b/i,
  ],
];

const CATEGORIES: [MemoryCategory, RegExp][] = [
  [
    "technical",
    /\b(api|database|postgres|mysql|sqlite|mongo|react|vue|angular|node|typescript|javascript|python|java|golang|rust|stack|backend|frontend|architecture|server|cloud|aws|gcp|azure|kubernetes|docker|sql|code|framework|library|ios|android|mobile app|sso|security|performance|latency|integration|graphql|rest|microservices?|infra\w*|deploy\w*|remix|next\.js)\b/gi,
  ],
  [
    "business",
    /\b(revenue|pricing|price|customers?|market|sales|b2b|b2c|enterprise|smb|company|startup|budget|cost|roi|kpis?|growth|churn|arr|mrr|segment|competitors?|(?:pricing|paid|free) plans?|tiers?|deals?|contracts?)\b/gi,
  ],
  [
    "process",
    /\b(sprints?|agile|scrum|kanban|reviews?|approvals?|releases?|rollback|rollout|pilots?|launch\w*|roadmap|process|workflow|meetings?|standups?|deadlines?|quarters?|planning|jira|tickets?|launch|okrs?|estimates?|waterfall)\b/gi,
  ],
  [
    "style",
    /\b(format|tone|style|concise|short|long|verbose|detailed|bullets?|tables?|headings?|emojis?|wording|language|voice|formal|casual|markdown|length|vague|generic|prds?|writing|examples?)\b/gi,
  ],
  ["team", /\b(team|engineers?|designers?|developers?|pm|pms|people|hires?|headcount|members?|managers?|stakeholders?|colleagues?|cto|ceo|founders?)\b/gi],
];

const DEFAULT_CATEGORY: Record<MemoryType, MemoryCategory> = { preference: "style", feedback: "style", decision: "process", project_context: "business" };
const BASE_IMPORTANCE: Record<MemoryType, number> = { decision: 7, preference: 6, feedback: 6, project_context: 5 };

const CONFIRM =
  /^(?:yes|yep|yeah|sure|ok(?:ay)?|agreed|sounds good|perfect|exactly|correct|let's do (?:that|it)|go (?:with|for) (?:that|it)|do it|great|that works)\b/i;
const PROPOSAL = /\b(?:i (?:recommend|suggest|propose)|we (?:could|should)|let's|you (?:could|should)|i'd go with|how about)\b/i;

function classify(sentence: string): MemoryType | null {
  if (/\?\s*$/.test(sentence)) return null;
  for (const [type, re] of PATTERNS) if (re.test(sentence)) return type;
  return null;
}

function category(text: string, type: MemoryType): MemoryCategory {
  let best: MemoryCategory = DEFAULT_CATEGORY[type];
  let score = 0;
  for (const [cat, re] of CATEGORIES) {
    const n = text.match(re)?.length ?? 0;
    if (n > score) (best = cat), (score = n);
  }
  return best;
}

function importance(text: string, type: MemoryType) {
  let n = BASE_IMPORTANCE[type];
  if (/\b(always|never|must|every|all|critical|required|mandatory|important)\b/i.test(text)) n += 2;
  if (/\b(really|strongly|definitely|please)\b/i.test(text)) n += 1;
  if (/\b(maybe|might|sometimes|probably|perhaps|could)\b/i.test(text)) n -= 2;
  return Math.max(1, Math.min(10, n));
}

const ACTIONS: [RegExp, string][] = [
  [/\btoo (?:long|verbose|wordy)\b/i, "Keep outputs shorter."],
  [/\btoo short\b/i, "Give more detail."],
  [/\btoo (?:vague|generic)\b/i, "Be more specific, with names and numbers."],
  [/\btoo technical\b/i, "Use less technical language."],
  [/\btoo formal\b/i, "Use a more casual tone."],
  [/\btoo casual\b/i, "Use a more formal tone."],
];

/** The statement as a clear sentence: politeness and fillers removed, capitalised, ending in a full stop. */
function clean(sentence: string, type: MemoryType) {
  let t = sentence
    .replace(/^(?:also|and|but|so|oh|btw|by the way|ok(?:ay)?|yes|yeah|well|fyi|note)[,:]?\s+/i, "")
    .replace(/^(?:could you|can you|would you)\s+(?:please\s+)?/i, "")
    .replace(/^please\s+/i, "")
    .replace(/\s+/g, " ")
    .trim();
  t = trimEndWhere(ucFirst(t), (c) => /[\s,;:]/.test(c));
  if (!/[.!]$/.test(t)) t += ".";
  if (type === "feedback") {
    const action = ACTIONS.find(([re]) => re.test(t))?.[1];
    if (action && !t.toLowerCase().includes(action.toLowerCase().slice(0, -1))) t = `${t} ${action}`;
  }
  return t.slice(0, 2000);
}

const LABEL: Record<MemoryType, string> = { preference: "Preference", decision: "Decision", project_context: "Context", feedback: "Feedback" };

export function extractMemories(input: { conversation: ChatMessage[] }, _ctx: BuiltinContext): MemoryCandidate[] {
  const found: { type: MemoryType; text: string }[] = [];
  input.conversation.forEach((m, i) => {
    if (m.role === "user") {
      for (const s of sentences(m.content)) {
        const type = classify(s);
        if (type) found.push({ type, text: s });
      }
      return;
    }
    // An assistant's proposal counts when the next user message confirms it.
    const next = input.conversation[i + 1];
    if (next?.role === "user" && CONFIRM.test(next.content.trim())) {
      const proposal = sentences(m.content).find((s) => PROPOSAL.test(s) && !/\?\s*$/.test(s));
      if (proposal) found.push({ type: "decision", text: `Agreed: ${proposal.replace(/^(?:i (?:recommend|suggest|propose)(?: that)?|i'd go with)\s+/i, "")}` });
    }
  });

  const out: MemoryCandidate[] = [];
  const keys: string[] = [];
  for (const { type, text } of found) {
    if (out.length >= MAX) break;
    const content = clean(text, type);
    const key = words(content).join(" ");
    if (words(content).length < 3 || keys.some((k) => k === key || k.includes(key) || key.includes(k))) continue;
    keys.push(key);
    out.push({
      memoryType: type,
      category: category(content, type),
      content,
      summary: shorten(`${LABEL[type]}: ${content}`, 200),
      importance: importance(text, type),
    });
  }
  return out;
}
