import { createHash } from "node:crypto";

/**
 * User stories out of Markdown: the user-stories AI output (H2 epics, H3
 * stories with "As a …", acceptance criteria, size and priority) or a
 * selection of it made in the editor. Pure: no database, no network.
 */

export interface Story {
  /** Stable across regenerations: a hash of the epic and the title (not the story's number). */
  key: string;
  title: string;
  /** The story's own Markdown: "As a …", acceptance criteria, size, priority. */
  text: string;
  labels: string[];
  /** The epic (H2) it sits under, if any. */
  section: string | null;
}

const norm = (s: string) => s.toLowerCase().replace(/\s+/g, " ").trim();
const plain = (s: string) => s.replace(/[*_`]/g, "").replace(/\s+/g, " ").trim();

export const storyKey = (section: string | null, title: string) =>
  createHash("sha256")
    .update(`${norm(section ?? "")}\n${norm(title)}`)
    .digest("hex")
    .slice(0, 16);

/** Headings that hold no stories ("Open questions" of the offline drafter). */
const NOT_AN_EPIC = /^(open questions|questions|notes|assumptions|out of scope)$/i;

function labelsOf(text: string) {
  const labels = ["user story"];
  const priority = /\bpriority\b[*_:\s]*\b(must|should|could|won't|wont)\b/i.exec(text);
  if (priority) labels.push(`priority: ${priority[1]!.toLowerCase()}`);
  const size = /\bsize\b[*_:\s]*\b(XS|S|M|L|XL)\b/i.exec(text);
  if (size) labels.push(`size: ${size[1]!.toUpperCase()}`);
  return labels;
}

export function parseStories(markdown: string): Story[] {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  const hasH3 = lines.some((l) => /^###\s+\S/.test(l));
  // Without H3 stories (a selection of H2 stories), each H2 is a story.
  const storyLevel = hasH3 ? 3 : 2;
  const found: { section: string | null; title: string; lines: string[] }[] = [];
  let section: string | null = null;
  let current: (typeof found)[number] | null = null;
  let inFence = false;
  for (const line of lines) {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const heading = inFence ? null : /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
    if (heading) {
      const level = heading[1]!.length;
      const text = plain(heading[2]!);
      if (level < storyLevel) {
        current = null;
        section = level === 2 && !NOT_AN_EPIC.test(text) ? text : null;
        continue;
      }
      if (level === storyLevel) {
        const title = text.replace(/^story\s*\d+\s*[:.)\-–—]\s*/i, "").trim();
        current = title ? { section, title, lines: [] } : null;
        if (current) found.push(current);
        continue;
      }
    }
    current?.lines.push(line);
  }
  const seen = new Map<string, number>();
  return found.map((s) => {
    const base = storyKey(s.section, s.title);
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    const text = s.lines.join("\n").trim();
    return {
      key: n === 1 ? base : storyKey(s.section, `${s.title}#${n}`),
      title: s.title.slice(0, 250),
      text,
      labels: labelsOf(text),
      section: s.section,
    };
  });
}

/** The issue body: the story, its acceptance criteria, and where it came from. */
export function issueBody(story: Story, from: { projectName: string; url: string }) {
  const where = story.section ? `${from.projectName} › ${story.section}` : from.projectName;
  return `${story.text}\n\n---\nFrom PRD: [${where}](${from.url})`.trim();
}
