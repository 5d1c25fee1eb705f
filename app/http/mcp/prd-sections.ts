/** Sections of a PRD's Markdown for `get_prd {section}` (docs/mcp.md). */

export interface Heading {
  level: number;
  title: string;
  line: number;
}

/** The Markdown's ATX headings outside code fences. */
export function prdHeadings(markdown: string): Heading[] {
  const headings: Heading[] = [];
  let fence: string | null = null;
  markdown.split("\n").forEach((raw, line) => {
    const fenceMatch = /^\s{0,3}(`{3,}|~{3,})/.exec(raw);
    if (fenceMatch) {
      if (!fence) fence = fenceMatch[1]![0]!;
      else if (fenceMatch[1]![0] === fence) fence = null;
      return;
    }
    if (fence) return;
    const m = /^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$/.exec(raw);
    if (m) headings.push({ level: m[1]!.length, title: m[2]!.trim(), line });
  });
  return headings;
}

/** One section (its heading to the next heading of the same or a higher level), or null with the headings there are. */
export function prdSection(markdown: string, section: string): { content: string } | { available: string[] } {
  const headings = prdHeadings(markdown);
  const wanted = section
    .trim()
    .replace(/^#+\s*/, "")
    .toLowerCase();
  const at = headings.findIndex((h) => h.title.toLowerCase() === wanted);
  if (at < 0) return { available: headings.map((h) => h.title) };
  const start = headings[at]!;
  const end = headings.slice(at + 1).find((h) => h.level <= start.level);
  const lines = markdown.split("\n");
  return {
    content: lines
      .slice(start.line, end ? end.line : lines.length)
      .join("\n")
      .trim(),
  };
}
