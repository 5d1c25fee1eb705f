import { diffLines } from "diff";

export interface DiffLine {
  type: "added" | "removed" | "unchanged";
  text: string;
}

/**
 * A readable line diff between two texts (jsdiff): every line tagged added,
 * removed or unchanged, long unchanged stretches folded to 3 lines of
 * context, plus counts.
 */
export function diffTexts(from: string, to: string, context = 3) {
  const lines: DiffLine[] = [];
  let added = 0;
  let removed = 0;
  for (const part of diffLines(from, to)) {
    const type = part.added ? "added" : part.removed ? "removed" : "unchanged";
    const texts = part.value.replace(/\n$/, "").split("\n");
    if (type === "added") added += texts.length;
    if (type === "removed") removed += texts.length;
    for (const text of texts) lines.push({ type, text });
  }
  // Fold unchanged runs longer than 2 * context + 1 into a marker.
  const folded: (DiffLine | { type: "skipped"; count: number })[] = [];
  for (let i = 0; i < lines.length; ) {
    if (lines[i]!.type !== "unchanged") {
      folded.push(lines[i]!);
      i++;
      continue;
    }
    let j = i;
    while (j < lines.length && lines[j]!.type === "unchanged") j++;
    const run = lines.slice(i, j);
    const head = i === 0 ? 0 : context;
    const tail = j === lines.length ? 0 : context;
    if (run.length > head + tail + 1) {
      folded.push(...run.slice(0, head), { type: "skipped", count: run.length - head - tail }, ...run.slice(run.length - tail));
    } else {
      folded.push(...run);
    }
    i = j;
  }
  return { added, removed, lines: folded };
}
