/**
 * Reading a PRD (or any Markdown) the way the offline drafter needs it:
 * its title, its H2 sections with their lines, list items and sentences.
 * Pure and synchronous; every task of the drafter starts from `readDoc`.
 */
import { headingOf, listItemOf, plainInline } from "./md-scan";

export interface DocLine {
  /** 1-based line number in the whole document. */
  line: number;
  text: string;
}

export interface DocSection {
  /** Heading text without Markdown markers; "" for the text before the first H2. */
  title: string;
  /** 1-based line of the heading (0 for the preamble). */
  line: number;
  /** The lines under the heading (H3 and deeper headings included), fenced code excluded. */
  lines: DocLine[];
  /** The section's text (its lines joined, heading excluded). */
  body: string;
  /** List items (`-`, `*`, `+`, `1.`, `- [ ]`) with markers removed, continuation lines joined. */
  items: DocLine[];
  /** H3+ sub-headings in this section. */
  subheadings: DocLine[];
}

export interface Doc {
  /** The H1 (or the first heading, or the first line), markers removed; "" for empty input. */
  title: string;
  sections: DocSection[];
  /** All non-empty lines outside fenced code. */
  lines: DocLine[];
  /** Plain text (Markdown markers removed) for word counts and sentence search. */
  plain: string;
}

/** Markdown inline markers removed (linear time: app/utils/md-scan.ts). */
export { plainInline };

export function readDoc(markdown: string): Doc {
  const raw = markdown.replace(/\r\n?/g, "\n").split("\n");
  const sections: DocSection[] = [{ title: "", line: 0, lines: [], body: "", items: [], subheadings: [] }];
  const lines: DocLine[] = [];
  let title = "";
  let fenced = false;
  let current = sections[0]!;
  raw.forEach((text, index) => {
    const line = index + 1;
    if (/^\s*(```|~~~)/.test(text)) {
      fenced = !fenced;
      return;
    }
    if (fenced) return;
    const trimmed = text.trim();
    if (!trimmed) {
      current.lines.push({ line, text: "" });
      return;
    }
    lines.push({ line, text });
    const heading = trimmed[0] === "#" ? headingOf(trimmed) : null;
    if (heading) {
      const [level, headingText] = heading;
      const name = plainInline(headingText);
      if (level === 1 && !title) {
        title = name;
        return;
      }
      if (level === 2) {
        current = { title: name, line, lines: [], body: "", items: [], subheadings: [] };
        sections.push(current);
        return;
      }
      current.subheadings.push({ line, text: name });
    }
    current.lines.push({ line, text });
  });
  for (const section of sections) {
    section.body = section.lines
      .map((l) => l.text)
      .join("\n")
      .trim();
    section.items = listItems(section.lines);
  }
  if (!title) title = sections.find((s) => s.title)?.title ?? plainInline(lines[0]?.text.replace(/^#+\s*/, "") ?? "");
  const plain = lines.map((l) => plainInline(l.text.replace(/^\s*(#{1,6}|[-*+]|\d+[.)]|>)\s+/, "").replace(/^\[[ xX]\]\s+/, ""))).join("\n");
  return { title, sections: sections.filter((s, i) => i > 0 || s.body), lines, plain };
}

/** List items of some lines; an indented non-item line continues the item above it. */
function listItems(lines: DocLine[]): DocLine[] {
  const items: DocLine[] = [];
  let open: DocLine | null = null;
  for (const l of lines) {
    const m = listItemOf(l.text);
    if (m?.[1].trim()) {
      open = { line: l.line, text: plainInline(m[1]) };
      items.push(open);
    } else if (open && /^\s{2,}\S/.test(l.text) && !headingOf(l.text.trim())) {
      open.text = `${open.text} ${plainInline(l.text)}`;
    } else {
      open = null;
    }
  }
  return items;
}

const norm = (s: string) =>
  s
    .toLowerCase()
    .replace(/&/g, " and ")
    .replace(/[^a-z0-9]+/g, " ")
    .trim();

/**
 * The first section whose title contains any of the keywords (case- and
 * punctuation-insensitive), e.g. `findSection(doc, "goal", "metric")`.
 */
export function findSection(doc: Doc, ...keywords: string[]): DocSection | undefined {
  const keys = keywords.map(norm);
  return doc.sections.find((s) => s.title && keys.some((k) => norm(s.title).includes(k)));
}

/** Whether two section titles name the same section ("Goals & Metrics" ~ "goals and metrics"). */
export function sameTitle(a: string, b: string) {
  return norm(a) === norm(b);
}

/** Sentences of a text (Markdown removed), trimmed, without empty ones. */
export function sentences(text: string): string[] {
  return plainInline(text)
    .split(/(?<=[.!?])\s+|\n+/)
    .map((s) => s.replace(/^\s*(?:[-*+]|\d+[.)]|#{1,6}|>)\s+/, "").trim())
    .filter((s) => s.length > 1);
}

/** Words of a text, lower-cased, for overlap and keyword measures. */
export function words(text: string): string[] {
  return text.toLowerCase().match(/[a-z0-9][a-z0-9'-]*/g) ?? [];
}

/** Whether text states a number (a figure, percentage, duration, amount). */
export function hasNumber(text: string) {
  return /\d/.test(text);
}

/** Text cut to `max` characters at a word boundary, with an ellipsis when cut. */
export function shorten(text: string, max: number) {
  const t = text.replace(/\s+/g, " ").trim();
  if (t.length <= max) return t;
  const cut = t.slice(0, max - 1);
  return `${cut.slice(0, Math.max(cut.lastIndexOf(" "), max / 2)).replace(/[\s,;:.]+$/, "")}…`;
}
