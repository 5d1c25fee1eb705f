import { plainInline } from "~/utils/md-doc";
import { proseSentences as sentences } from "~/ai/nlp/sentences";
import { headingLabel, type LabelKind, leadLabel } from "./labels";

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

/** One statement of an answer, with the label the user gave it (labels.ts), if any. */
export interface Unit {
  text: string;
  label?: LabelKind;
}

/**
 * The statements of an answer with their labels: a statement's own lead
 * ("Risk: …", "We will not build …"), else its line's ("Out of scope: SMS.
 * Payments too."), else the heading over its list ("Non-goals:" then items).
 * A heading's label holds for the lines right under it and for list items
 * until the next heading; a plain paragraph after a blank line ends it.
 */
export function labelledUnits(answer: string): Unit[] {
  const units: Unit[] = [];
  const lines = answer.replace(/\r\n?/g, "\n").split("\n");
  let heading: LabelKind | undefined;
  let blank = false;
  const push = (texts: string[], lineLabel?: LabelKind) => {
    let label = lineLabel;
    for (const raw of texts) {
      const lead = leadLabel(raw);
      // A label opening the line holds for the rest of it ("Out of scope: SMS. Payments too.").
      if (lead?.written && raw === texts[0]) label = lead.kind;
      units.push({ text: lead?.text ?? raw, label: lead?.kind ?? label ?? heading });
    }
  };
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!.trimEnd();
    if (!line.trim()) {
      blank = true;
      continue;
    }
    const wasBlank = blank;
    blank = false;
    const head = headingLabel(plainInline(line));
    if (head) {
      heading = head;
      continue;
    }
    if (isTableRow(line) && i + 1 < lines.length && isTableRow(lines[i + 1]!)) {
      const rows: string[] = [];
      while (i < lines.length && isTableRow(lines[i]!)) rows.push(lines[i++]!);
      i--;
      push(tableUnits(rows));
      continue;
    }
    const numbered = inlineNumbered(plainInline(line));
    if (numbered) {
      push(numbered.flatMap(splitLabelled));
      continue;
    }
    const item = ITEM.exec(line);
    if (item) {
      push(splitLabelled(plainInline(item[1]!).trim()));
      continue;
    }
    if (wasBlank) heading = undefined;
    // "Risk: … Mitigation: …" is one statement: a mitigation stays with what it mitigates.
    const own: string[] = [];
    for (const sentence of sentences(line)) {
      const last = own.length ? own.at(-1) : units.at(-1)?.text;
      if (MITIGATION_LABEL.test(sentence) && last && !MITIGATION_LABEL.test(last)) {
        if (own.length) own[own.length - 1] = `${last} ${sentence}`;
        else units[units.length - 1]!.text = `${last} ${sentence}`;
      } else own.push(sentence);
    }
    push(own);
  }
  // "Our goals:" introduces what follows; it says nothing itself.
  return (
    units
      .map((u) => ({ ...u, text: u.text.replace(/\s+/g, " ").trim() }))
      // A labelled item may be one word ("Non-goals:" then "- Payments").
      .filter((u) => (enough(u.text) || (u.label && /[\p{L}\p{N}]{2}/u.test(u.text))) && !(/:$/.test(u.text) && u.text.split(" ").length <= 4))
      .map((u) => (u.label ? u : { text: u.text }))
  );
}

export const answerUnits = (answer: string): string[] => labelledUnits(answer).map((u) => u.text);
