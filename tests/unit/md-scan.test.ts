import { describe, expect, it } from "vitest";
import { headingOf, listItemOf, plainInline } from "~/utils/md-scan";
import { plainInline as oldPlainInline } from "../support/prd-check-reference/md-doc";

/**
 * The linear scanners behind md-doc.ts give what the regular expressions
 * they replace gave (issue 33), on random short text made of the characters
 * those expressions care about, and finish fast on the shapes that made the
 * expressions backtrack.
 */

const TOKENS = [
  "*",
  "_",
  "**",
  "__",
  "[",
  "]",
  "](",
  "(",
  ")",
  "!",
  "![",
  "<",
  ">",
  "`",
  " ",
  "  ",
  "\t",
  "a",
  "b",
  "word",
  "1",
  "12",
  "#",
  "##",
  "-",
  "+",
  ".",
  ")",
  "x",
  "X",
  "[ ]",
  "[x]",
  ":",
  "\u2028",
  "\n",
  "\r",
  "\u00a0",
  "é",
];

function random(seed: number) {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32;
  };
}

function samples(count: number, seed: number, prefixes: string[] = [""]) {
  const next = random(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let text = prefixes[Math.floor(next() * prefixes.length)]!;
    const length = Math.floor(next() * 24);
    for (let j = 0; j < length; j++) text += TOKENS[Math.floor(next() * TOKENS.length)];
    out.push(text);
  }
  return out;
}

const OLD_HEADING = /^(#{1,6})\s+(.+?)\s*#*\s*$/;
const OLD_ITEM = /^(\s*)(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?(.*)$/;

describe("md-scan: the same answers as the regular expressions", () => {
  it("plainInline", () => {
    for (const text of samples(30_000, 1)) expect(plainInline(text), JSON.stringify(text)).toBe(oldPlainInline(text));
  });

  it("headingOf", () => {
    for (const text of samples(30_000, 2, ["#", "# ", "## ", "###### ", "####### ", " # "]).map((t) => t.trim())) {
      const m = OLD_HEADING.exec(text);
      expect(headingOf(text), JSON.stringify(text)).toEqual(m ? [m[1]!.length, m[2]] : null);
    }
  });

  it("listItemOf", () => {
    for (const text of samples(30_000, 3, ["- ", "* ", "+ ", "1. ", "2) ", "  - ", "- [ ] ", "- [x]", "12.", " "])) {
      const m = OLD_ITEM.exec(text);
      expect(listItemOf(text), JSON.stringify(text)).toEqual(m ? [m[1], m[2]] : null);
    }
  });
});

describe("md-scan: linear on the shapes that backtracked", () => {
  const N = 200_000;
  const fill = (unit: string) => unit.repeat(Math.ceil(N / unit.length)).slice(0, N);
  const shapes = {
    "[[[": fill("["),
    "[a](": fill("[a]("),
    "![a": fill("![a"),
    "<<<": fill("<"),
    "*a ": fill("*a "),
    "_a ": fill("_a "),
    "**a\\u2028": fill("**a\u2028"),
    "(a+)+!": fill("(a+)+!"),
  };

  // A scan that backtracks again runs for minutes and fails by the test timeout; bench:prd-check measures the speed.
  it.each(Object.entries(shapes))("plainInline of %s × 200,000 characters", (_name, text) => {
    expect(plainInline(text).length).toBeLessThanOrEqual(text.length);
  });

  it("headingOf and listItemOf of a heading or item followed by 200,000 spaces", () => {
    expect(headingOf(`## a${" ".repeat(N)}b`)).toEqual([2, `a${" ".repeat(N)}b`]);
    expect(listItemOf(`- ${" ".repeat(N)}a\u2028b`)).toBeNull();
    expect(listItemOf(`- [x]${" ".repeat(N)}a`)).toEqual(["", "a"]);
  });
});
