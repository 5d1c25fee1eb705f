import { diffLines } from "diff";
import { plural } from "~/utils/plural";

/**
 * "Changes since the last delivery" of a scheduled export: the PRD compared
 * line by line with the text delivered last time, summarised by section
 * (markdown headings) and counted in lines.
 */

export interface Changelog {
  /** No earlier delivery to compare with. */
  firstDelivery: boolean;
  unchanged: boolean;
  sectionsAdded: string[];
  sectionsRemoved: string[];
  sectionsChanged: string[];
  linesAdded: number;
  linesRemoved: number;
  /** One paragraph for an e-mail body. */
  summary: string;
}

const HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;

/** Sections by heading text ("Introduction" for text before the first heading). Repeated headings get " (2)". */
export function sections(markdown: string): Map<string, string> {
  const out = new Map<string, string>();
  let current = "Introduction";
  let lines: string[] = [];
  let fenced = false;
  const flush = () => {
    const body = lines.join("\n").trim();
    if (body || current !== "Introduction") {
      let name = current;
      for (let n = 2; out.has(name); n++) name = `${current} (${n})`;
      out.set(name, body);
    }
  };
  for (const line of markdown.replace(/\r\n/g, "\n").split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    const m = fenced ? null : HEADING.exec(line);
    if (m) {
      flush();
      current = m[2]!.replace(/[*_`]/g, "").trim();
      lines = [];
    } else {
      lines.push(line);
    }
  }
  flush();
  return out;
}

const list = (names: string[], max = 5) => (names.length <= max ? names.join(", ") : `${names.slice(0, max).join(", ")} and ${names.length - max} more`);

export function changelog(previous: string | null, current: string): Changelog {
  if (previous === null) {
    return {
      firstDelivery: true,
      unchanged: false,
      sectionsAdded: [],
      sectionsRemoved: [],
      sectionsChanged: [],
      linesAdded: 0,
      linesRemoved: 0,
      summary: "First delivery of this scheduled export: there is no earlier delivery to compare with.",
    };
  }
  let linesAdded = 0;
  let linesRemoved = 0;
  for (const part of diffLines(previous, current)) {
    const count = part.value.replace(/\n$/, "").split("\n").length;
    if (part.added) linesAdded += count;
    if (part.removed) linesRemoved += count;
  }
  const before = sections(previous);
  const after = sections(current);
  const sectionsAdded = [...after.keys()].filter((k) => !before.has(k));
  const sectionsRemoved = [...before.keys()].filter((k) => !after.has(k));
  const sectionsChanged = [...after.keys()].filter((k) => before.has(k) && before.get(k) !== after.get(k));
  const unchanged = linesAdded === 0 && linesRemoved === 0;
  const parts: string[] = [];
  if (sectionsChanged.length) parts.push(`${plural(sectionsChanged.length, "section")} changed (${list(sectionsChanged)})`);
  if (sectionsAdded.length) parts.push(`${sectionsAdded.length} added (${list(sectionsAdded)})`);
  if (sectionsRemoved.length) parts.push(`${sectionsRemoved.length} removed (${list(sectionsRemoved)})`);
  const summary = unchanged
    ? "No changes since the last delivery."
    : `Changes since the last delivery: ${parts.length ? `${parts.join("; ")}; ` : ""}+${linesAdded} / -${linesRemoved} lines.`;
  return { firstDelivery: false, unchanged, sectionsAdded, sectionsRemoved, sectionsChanged, linesAdded, linesRemoved, summary };
}
