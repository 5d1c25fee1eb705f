import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { cachedCheck, checkCacheStats, clearCheckCache, MAX_BYTES, MAX_ENTRIES, PARTIAL_MS } from "~/domain/prd/check-cache.server";
import { checkPrd } from "~/prd-rules/check";
import { FULL_PRD, MESSY_PRD } from "../support/prd-fixtures";

/**
 * The PRD check's cache (issue 33): by content and template sections, least
 * recently used first out, bounded by entries and by bytes; results are
 * shared, so frozen; a check cut short by its time budget is kept a minute.
 */

beforeEach(() => clearCheckCache());
afterEach(() => vi.useRealTimers());

const computed = () => checkCacheStats().computed;

describe("the PRD check cache", () => {
  it("checks the same text once, and gives what the check gives", () => {
    const before = computed();
    const first = cachedCheck(MESSY_PRD, undefined);
    const again = cachedCheck(MESSY_PRD, undefined);
    expect(computed() - before).toBe(1);
    expect(again).toBe(first);
    expect(first).toEqual(checkPrd(MESSY_PRD));
  });

  it("checks again for another version or another template", () => {
    const before = computed();
    cachedCheck(MESSY_PRD, undefined);
    cachedCheck(`${MESSY_PRD}\nOne more line.`, undefined);
    cachedCheck(MESSY_PRD, ["Problem", "Goals"]);
    cachedCheck(MESSY_PRD, ["Problem", "Goals", "Risks"]);
    expect(computed() - before).toBe(4);
    expect(cachedCheck(MESSY_PRD, ["Problem", "Goals"]).sections.expected).toEqual(["Problem", "Goals"]);
    expect(computed() - before).toBe(4);
  });

  it("shares frozen results: a caller cannot change what the next one gets", () => {
    const check = cachedCheck(MESSY_PRD, undefined);
    expect(() => check.issues.push(check.issues[0]!)).toThrow(TypeError);
    expect(() => {
      (check.issues[0] as { message: string }).message = "changed";
    }).toThrow(TypeError);
    expect(() => {
      check.counts.high = 99;
    }).toThrow(TypeError);
    expect(cachedCheck(MESSY_PRD, undefined)).toEqual(checkPrd(MESSY_PRD));
  });

  it(`keeps at most ${MAX_ENTRIES} entries, least recently used out first`, () => {
    const text = (i: number) => `${FULL_PRD}\n\nNote ${i}.`;
    cachedCheck(text(0), undefined);
    for (let i = 1; i <= MAX_ENTRIES + 20; i++) {
      cachedCheck(text(i), undefined);
      if (i % 50 === 0) cachedCheck(text(0), undefined); // used again: stays
    }
    expect(checkCacheStats().entries).toBe(MAX_ENTRIES);
    const before = computed();
    cachedCheck(text(0), undefined);
    cachedCheck(text(MAX_ENTRIES + 20), undefined);
    expect(computed()).toBe(before);
    cachedCheck(text(1), undefined);
    expect(computed()).toBe(before + 1);
  });

  it(`keeps at most ${MAX_BYTES / 1024 / 1024} MB of results`, () => {
    const big = (i: number) =>
      Array.from({ length: 600 }, (_, n) => `- Fast and easy and simple, ${"lengthy words ".repeat(8)}item ${n} of PRD ${i}`).join("\n");
    const one = cachedCheck(big(0), undefined);
    expect(one.truncated).toBe(true);
    const each = checkCacheStats().bytes;
    const fit = Math.floor(MAX_BYTES / each);
    for (let i = 1; i < fit + 10; i++) cachedCheck(big(i), undefined);
    const { entries, bytes } = checkCacheStats();
    expect(bytes).toBeLessThanOrEqual(MAX_BYTES);
    expect(entries).toBeLessThanOrEqual(fit);
    expect(entries).toBeGreaterThan(fit - 5);
  });

  it("keeps a check cut short by its budget for a minute only", () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    let clock = 0;
    const text = Array.from({ length: 3_000 }, (_, i) => `## Area ${i}\n- fast`).join("\n");
    const partial = cachedCheck(text, undefined, { budgetMs: 5, now: () => (clock += 1) });
    expect(partial.partial).toBe(true);
    const before = computed();
    expect(cachedCheck(text, undefined)).toBe(partial);
    vi.setSystemTime(Date.now() + PARTIAL_MS + 1);
    const full = cachedCheck(text, undefined);
    expect(computed()).toBe(before + 1);
    expect(full.partial).toBe(false);
  });
});
