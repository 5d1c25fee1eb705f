import type { MentionCandidate } from "./types";

/**
 * The `@name` being typed at the caret: `@` at the start or after a space or
 * punctuation, then letters (a first name and the start of a last name), up
 * to the caret. `start` is the index of the `@`.
 */
export function mentionQuery(value: string, caret: number): { start: number; text: string } | null {
  const before = value.slice(0, caret);
  const match = /(^|[^\p{L}\p{N}_@])@(\p{L}[\p{L}\p{M}'’.-]*(?: \p{L}[\p{L}\p{M}'’.-]*)?)$/u.exec(before);
  if (!match) return null;
  return { start: before.length - match[2]!.length - 1, text: match[2]! };
}

const plain = (text: string) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

/** Candidates whose name (or a word of it) or e-mail starts with the typed text, accents and case aside; names first. */
export function matchCandidates(candidates: MentionCandidate[], text: string, limit = 8) {
  const q = plain(text);
  const byName = candidates.filter((c) => {
    const name = plain(c.name);
    return name.startsWith(q) || name.split(/\s+/).some((word) => word.startsWith(q));
  });
  const byEmail = candidates.filter((c) => !byName.includes(c) && plain(c.email).startsWith(q));
  return [...byName, ...byEmail].slice(0, limit);
}
