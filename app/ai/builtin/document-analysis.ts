import type { DocumentAnalysisDraft } from "../prompts/document-analysis";

/**
 * Offline analysis of an uploaded document: deterministic and grounded in
 * the text. Headings (Markdown `#`, numbered or short title lines) become
 * sections; sentences with must/should/shall/need/will become candidate
 * requirements; questions the text asks (and TBDs) become open questions,
 * plus the usual PRD gaps the text never mentions; the summary is the
 * first sentences of the body.
 */

const MAX_SECTIONS = 30;
const MAX_REQUIREMENTS = 25;
const MAX_QUESTIONS = 15;

interface Heading {
  line: number;
  level: number;
  title: string;
}

export function countWords(text: string) {
  return text.split(/\s+/).filter((w) => /[\p{L}\p{N}]/u.test(w)).length;
}

const clipTo = (s: string, max: number) => (s.length <= max ? s : `${s.slice(0, max - 1).trimEnd()}…`);

function markdownHeadings(lines: string[]): Heading[] {
  const out: Heading[] = [];
  let fenced = false;
  lines.forEach((raw, line) => {
    if (/^\s*```/.test(raw)) fenced = !fenced;
    const m = !fenced && /^(#{1,6})\s+(.+?)\s*#*\s*$/.exec(raw);
    if (m) out.push({ line, level: m[1]!.length, title: m[2]!.replace(/[*_`]/g, "").trim() });
  });
  return out;
}

/** Plain-text headings: short lines without closing punctuation, numbered ("2.1 Goals"), ALL CAPS or Title-like, followed by text. */
function plainHeadings(lines: string[]): Heading[] {
  const out: Heading[] = [];
  lines.forEach((raw, line) => {
    const t = raw.trim();
    const next = lines
      .slice(line + 1)
      .find((l) => l.trim() !== "")
      ?.trim();
    if (!next || t.length < 2 || t.length > 80 || /[.,;!?…]$/.test(t) || /^[-*•]\s/.test(t)) return;
    const words = t.replace(/:$/, "").split(/\s+/);
    if (words.length > 8) return;
    const numbered = /^(\d+(?:\.\d+)*)\.?\s+\p{Lu}/u.exec(t);
    const caps = /\p{L}{2}/u.test(t) && t === t.toUpperCase();
    const titled = /^\p{Lu}/u.test(t) && (t.endsWith(":") || words.length <= 5) && next.length > t.length;
    if (numbered || caps || titled) {
      const level = numbered ? numbered[1]!.split(".").length : 1;
      out.push({ line, level, title: t.replace(/:$/, "") });
    }
  });
  return out;
}

/** Body paragraphs as sentences (PDF line wraps joined; list items kept apart). */
export function sentencesOf(lines: string[]) {
  const paragraphs: string[] = [];
  let current: string[] = [];
  const flush = () => {
    if (current.length) paragraphs.push(current.join(" "));
    current = [];
  };
  for (const raw of lines) {
    const t = raw.trim();
    if (t === "" || /^```/.test(t)) flush();
    else if (/^([-*+•]|\d+[.)])\s+/.test(t)) {
      flush();
      current.push(t.replace(/^([-*+•]|\d+[.)])\s+/, ""));
      flush();
    } else current.push(t);
  }
  flush();
  return paragraphs
    .flatMap((p) => p.split(/(?<=[.!?])\s+(?=["“(\p{Lu}\d])/u))
    .map((s) =>
      s
        .replace(/[*_`]+/g, "")
        .replace(/\s+/g, " ")
        .trim(),
    )
    .filter((s) => countWords(s) >= 3);
}

const REQUIREMENT = /\b(must|should|shall|needs?|will|required|has to|have to)\b/i;
const OPEN = /\b(TBD|TBC|TODO|to be (decided|determined|confirmed)|unclear|open question)\b/i;

const GAPS: { present: RegExp; question: string }[] = [
  { present: /\b(users?|customers?|personas?|audience|buyers?|members?)\b/i, question: "Who are the target users? The document does not name them." },
  {
    present: /\b(metrics?|KPIs?|measure[sd]?|success|goals?|targets?|OKRs?)\b/i,
    question: "How will success be measured? The document names no goals or metrics.",
  },
  { present: /\b(scope|out of scope|non-goals?|phase|MVP)\b/i, question: "What is in and out of scope for the first release?" },
  {
    present: /\b(timeline|deadline|launch|release|milestones?|quarter|Q[1-4]|20\d\d)\b/i,
    question: "When must this ship, and what are the milestones? The document gives no timeline.",
  },
];

function unique(items: string[], max: number, clip = 300) {
  const seen = new Set<string>();
  const out: string[] = [];
  for (const item of items) {
    const key = item.toLowerCase();
    if (seen.has(key)) continue;
    seen.add(key);
    out.push(clipTo(item, clip));
    if (out.length >= max) break;
  }
  return out;
}

export function documentAnalysis(input: { text: string; filename: string }): DocumentAnalysisDraft {
  const lines = input.text.split("\n");
  const md = markdownHeadings(lines);
  const headings = (md.length ? md : plainHeadings(lines)).slice(0, 200);
  const headingLines = new Set(headings.map((h) => h.line));
  const bodyLines = lines.map((l, i) => (headingLines.has(i) ? "" : l));
  const sentences = sentencesOf(bodyLines);

  const top = headings.find((h) => h.level === 1) ?? headings[0];
  const fromName = input.filename
    .replace(/\.[^.]+$/, "")
    .replace(/[_-]+/g, " ")
    .trim();
  const title = clipTo(top?.title || fromName || "Untitled document", 200);

  const sections = headings
    .filter((h) => !(h === top && h.level === 1 && headings.filter((x) => x.level === 1).length === 1))
    .slice(0, MAX_SECTIONS)
    .map((h) => {
      const end = headings.find((x) => x.line > h.line)?.line ?? lines.length;
      const first = sentencesOf(lines.slice(h.line + 1, end))[0];
      return { title: clipTo(h.title, 200), summary: first ? clipTo(first, 200) : "No text under this heading." };
    });

  const requirements = unique(
    sentences.filter((s) => REQUIREMENT.test(s) && !s.endsWith("?")),
    MAX_REQUIREMENTS,
  );
  const asked = sentences.filter((s) => s.endsWith("?") || OPEN.test(s));
  const gaps = GAPS.filter((g) => !g.present.test(input.text)).map((g) => g.question);
  const questions = unique([...asked, ...gaps], MAX_QUESTIONS);

  const lead = sentences
    .filter((s) => !s.endsWith("?"))
    .slice(0, 2)
    .join(" ");
  const summary = lead
    ? clipTo(lead, 400)
    : input.text.trim()
      ? `“${title}”: ${countWords(input.text)} words with no complete sentences to summarise.`
      : "The document contains no readable text.";

  return { title, summary, sections, requirements, questions };
}
