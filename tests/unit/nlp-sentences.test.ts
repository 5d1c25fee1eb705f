import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { proseSentences, splitSentences } from "~/ai/nlp/sentences";

/**
 * Issue 34: the drafter split sentences at "[.!?] + space" by hand, so "Dr."
 * and "e.g." ended sentences and a PM's facts came apart. Sentence boundaries
 * now come from the NLP library (app/ai/nlp/, docs/ai.md "Reading text").
 */

describe("sentence boundaries", () => {
  it.each([
    ["We see about 2,600 bookings a year. Dr. Patel agrees.", ["We see about 2,600 bookings a year.", "Dr. Patel agrees."]],
    ["Latency must stay under 1.5 s (p95). Uptime is 99.9%.", ["Latency must stay under 1.5 s (p95).", "Uptime is 99.9%."]],
    ["Use e.g. SMS or i.e. text messages. Then stop.", ["Use e.g. SMS or i.e. text messages.", "Then stop."]],
    ["Ship by Q3 2027. Mr. Smith at Acme Inc. signs off.", ["Ship by Q3 2027.", "Mr. Smith at Acme Inc. signs off."]],
    ["Version 2.1.3 ships. The U.S. team leads.", ["Version 2.1.3 ships.", "The U.S. team leads."]],
    ["Owners (admins, etc.) can edit. Viewers cannot.", ["Owners (admins, etc.) can edit.", "Viewers cannot."]],
  ])("%s", (text, expected) => {
    expect(splitSentences(text)).toEqual(expected);
  });

  it("ends a sentence at every line break, and skips empty lines", () => {
    expect(splitSentences("- Must: staff can book a visit\n\n- Should: patients get reminders\nRisk: staff ignore it. Mitigation: training.")).toEqual([
      "- Must: staff can book a visit",
      "- Should: patients get reminders",
      "Risk: staff ignore it.",
      "Mitigation: training.",
    ]);
  });

  it("reads Markdown prose without its markup, list markers or heading marks", () => {
    expect(proseSentences("## Goals\n- **Cut** no-shows by 20%. Dr. Lee owns it.\n1. Keep [the log](https://x.test/a.b)")).toEqual([
      "Goals",
      "Cut no-shows by 20%.",
      "Dr. Lee owns it.",
      "Keep the log",
    ]);
  });

  it("loses no character of a line and adds none (white space aside), whatever the line", () => {
    const unit = fc.constantFrom(..."ab .,!?:;()\"'1Dr.e.g.%$-–…\t");
    fc.assert(
      fc.property(fc.string({ unit, maxLength: 120 }), (line) => {
        const squeeze = (s: string) => s.replace(/\s+/g, "");
        expect(squeeze(splitSentences(line).join(""))).toBe(squeeze(line));
      }),
      { numRuns: 1_000 },
    );
  });

  it("answers on a long hostile line (a slow split fails by the test timeout)", () => {
    const line = "a. ".repeat(20_000);
    expect(splitSentences(line).join(" ").replace(/\s+/g, "")).toBe(line.replace(/\s+/g, ""));
  });
});
