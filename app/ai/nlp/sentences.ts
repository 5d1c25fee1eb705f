import { plainInline } from "~/utils/md-doc";
import { nlp } from "./engine";

/**
 * Sentences as a reader finds them: a line break always ends one (a PRD's
 * lines are its structure: items, headings, table rows), and within a line
 * the NLP library's sentence boundaries decide, so "Dr. Patel", "e.g. SMS",
 * "1.5 s" and "2,600 bookings" stay whole.
 */
export function splitSentences(text: string): string[] {
  const out: string[] = [];
  for (const line of text.split("\n")) {
    const trimmed = line.trim();
    if (!trimmed) continue;
    // A line without an inner sentence end needs no reading (most items and headings).
    if (!/[.!?]\s/.test(trimmed)) {
      out.push(trimmed);
      continue;
    }
    for (const sentence of nlp().readDoc(trimmed).sentences().out()) {
      const s = sentence.trim();
      if (s) out.push(s);
    }
  }
  return out;
}

/** The sentences of Markdown prose (its inline markup removed, list markers and heading marks dropped), without one-character ones. */
export function proseSentences(text: string): string[] {
  // The marker goes before the line is read: "1. Keep the log" is one sentence, not "1." and another.
  const lines = plainInline(text)
    .split("\n")
    .map((line) => line.trim().replace(/^(?:[-*+]|\d+[.)]|#{1,6}|>)\s+/, ""));
  return splitSentences(lines.join("\n")).filter((s) => s.length > 1);
}
