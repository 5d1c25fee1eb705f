import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { analyze } from "~/ai/builtin/analysis";
import { coach } from "~/ai/builtin/coach";
import type { BuiltinContext } from "~/ai/builtin/contract";
import { score } from "~/ai/builtin/score";
import { checkPrd } from "~/prd-rules/check";

/**
 * The offline check, score and coach against twelve hand-written PRDs, from
 * excellent to skeleton, each graded by a careful reviewer
 * (tests/fixtures/calibration/README.md): every score falls in its band, the
 * bands keep their order, placeholders are found, and every claim the coach
 * makes is a count taken from the document.
 */

const DIR = path.resolve("tests/fixtures/calibration");
const BANDS = ["excellent", "good", "fair", "weak", "poor", "skeleton"] as const;
type Band = (typeof BANDS)[number];
const set = (
  JSON.parse(fs.readFileSync(path.join(DIR, "bands.json"), "utf8")) as { file: string; band: Band; min: number; max: number; placeholders: number }[]
).map((entry) => ({ ...entry, text: fs.readFileSync(path.join(DIR, entry.file), "utf8") }));
const ctx: BuiltinContext = { memories: [] };
const scored = set.map((e) => ({ ...e, score: score({ prdContent: e.text }, ctx).overallScore, check: checkPrd(e.text), analysis: analyze(e.text, ctx) }));
const inBand = (band: Band) => scored.filter((e) => e.band === band);

describe("calibration set", () => {
  it("holds twelve PRDs, two per band, best first", () => {
    expect(set).toHaveLength(12);
    for (const band of BANDS) expect(inBand(band), band).toHaveLength(2);
    expect(set.map((e) => BANDS.indexOf(e.band))).toEqual([...set.map((e) => BANDS.indexOf(e.band))].sort((a, b) => a - b));
  });

  it("scores every PRD within the band a careful reviewer gave it", () => {
    for (const e of scored) {
      expect(e.score, `${e.file} (${e.band})`).toBeGreaterThanOrEqual(e.min);
      expect(e.score, `${e.file} (${e.band})`).toBeLessThanOrEqual(e.max);
    }
  });

  it("keeps the bands in order: every PRD scores above every PRD of a worse band", () => {
    for (let i = 0; i < BANDS.length - 1; i++) {
      const worst = Math.min(...inBand(BANDS[i]!).map((e) => e.score));
      const nextBest = Math.max(...scored.filter((e) => BANDS.indexOf(e.band) > i).map((e) => e.score));
      expect(worst, `${BANDS[i]} above everything worse`).toBeGreaterThan(nextBest);
    }
  });

  it("finds the placeholders planted in the weak PRDs and none in the excellent and good ones", () => {
    for (const e of scored) {
      const found = e.check.issues.filter((i) => i.rule === "placeholder" || i.rule === "open_todo" || i.rule === "empty_section").length;
      if (e.placeholders === 0 && (e.band === "excellent" || e.band === "good")) {
        expect(found, e.file).toBe(0);
        expect(e.check.counts.high, e.file).toBe(0);
      } else {
        expect(found, e.file).toBeGreaterThanOrEqual(e.placeholders);
      }
    }
    // The excellent ones have nothing to mark at all; the weak ones carry the most medium defects.
    for (const e of inBand("excellent")) expect(e.check.issues, e.file).toEqual([]);
    const mediums = (band: Band) => inBand(band).map((e) => e.check.counts.medium);
    expect(Math.min(...mediums("weak"))).toBeGreaterThan(Math.max(...mediums("good"), ...mediums("fair")));
    // Poor and skeleton PRDs lack whole sections.
    for (const e of [...inBand("poor"), ...inBand("skeleton")]) expect(e.check.counts.high, e.file).toBeGreaterThan(0);
  });

  it("coaches with the same score and claims nothing the document does not show", () => {
    for (const e of scored) {
      const review = coach({ prdContent: e.text }, ctx);
      const a = e.analysis;
      expect(Math.round(review.overallScore), e.file).toBe(e.score);
      expect(review.executiveSummary, e.file).toContain(`The check finds ${e.check.issues.length} issue`);
      const strengths = review.strengths.join("\n");
      for (const [, n] of strengths.matchAll(/Every goal \((\d+)\) states a number/g)) {
        expect(Number(n)).toBe(a.goals.length);
        expect(a.goalsWithNumbers).toBe(a.goals.length);
      }
      for (const [, n] of strengths.matchAll(/Every user story \((\d+)\) has acceptance criteria/g)) {
        expect(Number(n)).toBe(a.stories);
        expect(a.storiesWithAcceptance).toBe(a.stories);
      }
      for (const [, n] of strengths.matchAll(/Every listed risk \((\d+)\) has a mitigation/g)) {
        expect(Number(n)).toBe(a.risks.length);
        expect(e.text, e.file).not.toMatch(/mitigation:\s*(?:to be|tbc|tbd|pending)/i);
      }
      // A PRD with planted placeholders is told about them, high on the list.
      if (e.band === "weak") expect(review.improvements.find((i) => /still stand in for content/.test(i.suggestion))?.priority, e.file).toBe("high");
      // Nothing weak or worse is praised as strong.
      if (BANDS.indexOf(e.band) >= BANDS.indexOf("weak")) expect(strengths, e.file).not.toMatch(/Every listed risk/);
    }
  });
});
