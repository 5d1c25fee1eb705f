import { diff3Merge } from "node-diff3";

/**
 * Three-way merge of two saves that started from the same PRD version
 * (`base`): the lines only one side changed are taken from that side, and a
 * region both changed differently is a conflict. Markdown is merged line by
 * line, so edits to different sections (or different paragraphs of one)
 * never conflict. node-diff3 does the diff3 itself.
 */

export interface MergeConflict {
  /** The lines as they were in the common version. */
  base: string;
  /** Your lines. */
  mine: string;
  /** The lines as saved by the other person. */
  theirs: string;
}

export type MergeResult = { clean: true; content: string } | { clean: false; conflicts: MergeConflict[] };

const lines = (text: string) => text.replace(/\r\n?/g, "\n").split("\n");

export function mergePrd(base: string, mine: string, theirs: string): MergeResult {
  const regions = diff3Merge(lines(mine), lines(base), lines(theirs), { excludeFalseConflicts: true });
  const out: string[] = [];
  const conflicts: MergeConflict[] = [];
  for (const region of regions) {
    if ("ok" in region && region.ok) out.push(...region.ok);
    else if ("conflict" in region && region.conflict) {
      const c = region.conflict;
      conflicts.push({ base: c.o.join("\n"), mine: c.a.join("\n"), theirs: c.b.join("\n") });
    }
  }
  return conflicts.length ? { clean: false, conflicts } : { clean: true, content: out.join("\n") };
}
