/** Small pure text helpers for AI output. */

/** Splits text into stream-sized pieces at line ends (long lines at spaces); pieces concatenate to the input. */
export function chunkText(text: string, size = 160): string[] {
  const pieces: string[] = [];
  let current = "";
  for (const line of text.match(/[^\n]*\n|[^\n]+$/g) ?? []) {
    if (current.length + line.length > size && current) {
      pieces.push(current);
      current = "";
    }
    if (line.length <= size) {
      current += line;
      continue;
    }
    for (const word of line.match(/\S+\s*|\s+/g) ?? []) {
      if (current.length + word.length > size && current) {
        pieces.push(current);
        current = "";
      }
      current += word;
    }
  }
  if (current) pieces.push(current);
  return pieces;
}

/** Removes a Markdown code fence around a whole answer (```json … ```). */
export function stripOuterFence(text: string) {
  const m = /^\s*```[\w-]*\s*\n([\s\S]*?)\n?\s*```\s*$/.exec(text);
  return m ? m[1]! : text.trim();
}

/**
 * A streaming filter that drops Markdown fence lines (```mermaid, ```), so a
 * model that wraps a diagram in a code block still streams plain Mermaid.
 * Text is held back only until the end of its line is known.
 */
export function fenceFilter() {
  let pending = "";
  let started = false;
  const keep = (line: string) => {
    if (/^\s*```/.test(line)) return "";
    if (!started && line.trim() === "") return "";
    started = true;
    return line;
  };
  return {
    push(text: string) {
      pending += text;
      let out = "";
      let nl: number;
      while ((nl = pending.indexOf("\n")) >= 0) {
        out += keep(pending.slice(0, nl + 1));
        pending = pending.slice(nl + 1);
      }
      return out;
    },
    flush() {
      const rest = keep(pending);
      pending = "";
      return rest;
    },
  };
}
export type TextFilter = ReturnType<typeof fenceFilter>;
