/**
 * The user-story part of a PRD's Markdown (docs/trackers.md, "Choosing the
 * stories"): the section under the first H2 heading named "User stories" or
 * "Stories" (any case, an optional "4." number and emphasis allowed), up to
 * the next H1 or H2, kept only when it holds H3 stories. Pure: no database.
 */

const STORIES_HEADING = /^(\d+(\.\d+)*[.)]?\s+)?(user\s+)?stories$/i;

const headingOf = (line: string) => /^(#{1,6})\s+(.*?)\s*#*\s*$/.exec(line);
const plain = (s: string) => s.replace(/[*_`]/g, "").replace(/\s+/g, " ").trim();

/** The Markdown of the PRD's user-stories section (its H2 heading included), or null when it has none with ### stories. */
export function userStoriesSection(markdown: string): string | null {
  const lines = markdown.replace(/\r\n?/g, "\n").split("\n");
  let start = -1;
  let end = lines.length;
  let inFence = false;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    const heading = inFence ? null : headingOf(line);
    if (!heading || heading[1]!.length > 2) continue;
    if (start >= 0) {
      end = i;
      break;
    }
    if (heading[1]!.length === 2 && STORIES_HEADING.test(plain(heading[2]!))) start = i;
  }
  if (start < 0) return null;
  const section = lines.slice(start, end);
  inFence = false;
  const hasStory = section.some((line) => {
    if (/^\s*(```|~~~)/.test(line)) inFence = !inFence;
    return !inFence && /^###\s+\S/.test(line);
  });
  return hasStory ? section.join("\n").trim() : null;
}
