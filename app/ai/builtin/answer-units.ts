import { plainInline } from "~/utils/md-doc";
import { proseSentences as sentences } from "~/ai/nlp/sentences";

/**
 * The statements of one builder answer, as the user wrote them.
 * A list item stays whole ("1. Send a reminder 48 hours before. Include the
 * address." is one requirement), an inline numbered list ("1. … 2. …") is
 * split at its numbers, and the rest of the text is split into sentences.
 * A marker is never a statement of its own: nothing shorter than two words
 * comes out.
 */

const ITEM = /^\s*(?:[-*+•]|\d{1,2}[.)]|[a-z][.)])\s+(?:\[[ xX]\]\s+)?(.*)$/;

/** "1. Reminders 2. Confirm by reply 3. …" on one line: the items, when it numbers at least two in order. */
function inlineNumbered(line: string): string[] | null {
  const marks = [...line.matchAll(/(?:^|\s)(\d{1,2})[.)]\s+(?=\S)/g)];
  if (marks.length < 2 || Number(marks[0]![1]) !== 1 || marks.some((m, i) => Number(m[1]) !== i + 1)) return null;
  const head = line.slice(0, marks[0]!.index).trim();
  const items = marks.map((m, i) => line.slice(m.index! + m[0].length, marks[i + 1]?.index ?? line.length).trim());
  return [...(head ? sentences(head) : []), ...items];
}

const MITIGATION_LABEL = /^(?:mitigations?|fallback|contingency|plan)\s*:/i;
/** "Guardrail: …", "Secondary: …": a sentence that opens with a label of one or two words starts a statement of its own. */
const LABEL = /^[A-Z][\p{L}-]*(?: [\p{L}-]+)?\s*:\s+\S/u;

/** A list item's sentences, split where a later one opens with its own label (not a mitigation, which stays with its risk). */
function splitLabelled(item: string): string[] {
  const parts = sentences(item);
  if (parts.length < 2) return [item];
  const out: string[] = [];
  for (const p of parts) {
    if (out.length && !(LABEL.test(p) && !MITIGATION_LABEL.test(p))) out[out.length - 1] = `${out.at(-1)} ${p}`;
    else out.push(p);
  }
  return out;
}

const enough = (text: string) => (text.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).length >= 2;

const cells = (row: string) =>
  (row.includes("\t")
    ? row.split("\t")
    : row
        .trim()
        .replace(/^\||\|$/g, "")
        .split("|")
  ).map((c) => plainInline(c).trim());
const isTableRow = (line: string) => /^\s*\|.*\|\s*$/.test(line) || (line.split("\t").length >= 3 && !/^\s*(?:[-*+]|\d+[.)])\s/.test(line));
// `/^\s*\|?[\s:|-]+\|?\s*$/` said the same in cubic time on a line of spaces: every part of it is in the class.
const SEPARATOR = /^[\s:|-]+$/;

/**
 * A table (Markdown pipes, or tab-separated rows pasted from a spreadsheet):
 * each data row is one statement, its first cell the subject and the other
 * cells labelled by their headers ("No-show rate: today 18%, target 9%").
 */
function tableUnits(rows: string[]): string[] {
  const body = rows.filter((r) => !SEPARATOR.test(r));
  const [head, ...data] = body.map(cells);
  if (!head || !data.length) return body.map((r) => cells(r).filter(Boolean).join(", "));
  return data.map((row) => {
    const rest = row
      .slice(1)
      .map((v, i) => (v ? `${(head[i + 1] ?? "").toLowerCase()} ${v}`.trim() : ""))
      .filter(Boolean);
    return rest.length ? `${row[0]}: ${rest.join(", ")}` : (row[0] ?? "");
  });
}

export function answerUnits(answer: string): string[] {
  const units: string[] = [];
  const lines = answer.replace(/\r\n?/g, "\n").split("\n");
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trimEnd();
    if (!line.trim()) continue;
    if (isTableRow(line) && i + 1 < lines.length && isTableRow(lines[i + 1]!)) {
      const rows: string[] = [];
      while (i < lines.length && isTableRow(lines[i]!)) rows.push(lines[i++]!);
      i--;
      units.push(...tableUnits(rows));
      continue;
    }
    const numbered = inlineNumbered(plainInline(line));
    if (numbered) {
      units.push(...numbered.flatMap(splitLabelled));
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      units.push(...splitLabelled(plainInline(item[1]!).trim()));
      continue;
    }
    // "Risk: … Mitigation: …" is one statement: a mitigation stays with what it mitigates.
    for (const sentence of sentences(line)) {
      if (MITIGATION_LABEL.test(sentence) && units.length && !MITIGATION_LABEL.test(units.at(-1)!)) units[units.length - 1] = `${units.at(-1)} ${sentence}`;
      else units.push(sentence);
    }
  }
  // "Our goals:" introduces what follows; it says nothing itself.
  return units.map((u) => u.replace(/\s+/g, " ").trim()).filter((u) => enough(u) && !(/:$/.test(u) && u.split(" ").length <= 4));
}
