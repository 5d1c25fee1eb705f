import { afterEach, describe, expect, it } from "vitest";
import { BUDGET_MS, checkPrd, countWords, MAX_ISSUES } from "~/prd-rules/check";
import { words } from "~/utils/md-doc";
import { largePrd } from "../support/large-prd";
import { manySectionsPrd } from "../support/many-sections-prd";
import { checkPrd as oldCheckPrd } from "../support/prd-check-reference/check";
import { FULL_PRD, MESSY_PRD, THIN_PRD } from "../support/prd-fixtures";

/**
 * Issue 33: the check was quadratic (every line looked up its section among
 * all of them) and its patterns backtracked; a viewer's check of a 320 K-character
 * PRD took 19.4 s and blocked every other request. Now: one pass, at most
 * MAX_ISSUES issues returned (all counted), a time budget, and the same
 * results as the old check (tests/support/prd-check-reference/) on normal PRDs.
 */

const TEMPLATE = ["Problem Statement", "Goals", "Users", "Requirements", "1. Risks", "Open Questions"];
const same = (text: string, sections?: string[]) => {
  const now = checkPrd(text, { sections });
  const before = oldCheckPrd(text, { sections });
  expect({ issues: now.issues, counts: now.counts, sections: now.sections, stats: now.stats }).toEqual({
    ...before,
    issues: before.issues.slice(0, MAX_ISSUES),
  });
  expect(now.totalIssues).toBe(before.issues.length);
  expect(now.truncated).toBe(before.issues.length > MAX_ISSUES);
  expect(now.partial).toBe(false);
  return now;
};

function random(seed: number) {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32;
  };
}

const LINES = [
  ...[
    "## Problem",
    "## Goals and Success Metrics",
    "## Goals",
    "## Target Users",
    "## 1. Requirements",
    "## Scope & Non-Goals",
    "## Non-goals",
    "## Risks",
    "## Open Questions",
  ],
  ...["## User Stories", "### Acceptance", "### Details", "# Title", "## ", "## **Bold title**", "## Goals ##", "#### Deep", "Heading\u2028inside"],
  ...[
    "- Cut reimbursement time from 14 days to 5 days.",
    "- Make onboarding fast and easy",
    "  - nested detail line",
    "1. First step",
    "2) second step",
    "- [ ] open item",
    "- [x] done item",
    "* star item",
    "+ plus item",
  ],
  ...[
    "As a manager, I want to approve reports so that nothing waits.",
    "As Dan, I want a summary",
    "As an admin I can export",
    "as a user i want",
    "As a patient, I would like a reminder.",
  ],
  ...[
    "- Given a report, when I approve, then it is paid.",
    "Acceptance criteria:",
    "AC1: the list shows pending reports",
    "When I click, then it saves",
    "Given x then y",
  ],
  ...["TODO: pricing", "We need [insert figure here] and [to be confirmed]", "TBD", "FIXME later", "???", "[add owner here]", "XXX: decide", "TODO"],
  ...[
    "Owner: to be agreed",
    "- Mitigation: to be decided with the district.",
    "| Risk | to be agreed |",
    "Open question: who pays?",
    "- Open question: which region?",
    "The priority is to confirm",
    "Status: pending",
    "patients need to confirm the slot",
  ],
  ...["| Requirement | Priority |", "|---|---|", "| R1 | Must |", "|:-:|:--|", "| a |"],
  ...["```", "const fast = true; // TODO", "~~~", "    indented code line"],
  ...[
    "See [the guide](https://example.com) and **bold** _it_ `code fast` <b>tag</b>.",
    "Some users want a lot of seamless, robust features etc.",
    "![img](x.png) *emphasis* __strong__",
    "Imported from “notes.docx”.",
    "**In scope**",
    "N/A",
    "lorem ipsum dolor",
    "...",
    "Performance: p95 under 300 ms; 99.9% uptime.",
  ],
  ...["", "", "", "Plain prose about the product, nothing to report.", "The finance team reviews approvals weekly."],
];

function normalPrd(seed: number) {
  const next = random(seed);
  const out: string[] = [];
  const length = 5 + Math.floor(next() * 70);
  for (let i = 0; i < length; i++) out.push(LINES[Math.floor(next() * LINES.length)]!);
  return out.join(next() < 0.1 ? "\r\n" : "\n");
}

describe("the same results as the old check on normal PRDs", () => {
  it("the fixtures, a long realistic PRD and a many-section PRD, by outline and by template", () => {
    for (const text of [FULL_PRD, MESSY_PRD, THIN_PRD, "", "# Only a title", largePrd(3_000).markdown, manySectionsPrd(40_000)]) {
      same(text);
      same(text, TEMPLATE);
    }
  });

  it("600 generated PRDs mixing headings, lists, stories, tables, code, TODOs and placeholders", () => {
    let issues = 0;
    for (let seed = 1; seed <= 300; seed++) {
      issues += same(normalPrd(seed)).totalIssues;
      same(normalPrd(seed + 10_000), TEMPLATE);
    }
    expect(issues).toBeGreaterThan(3_000);
  });

  it("counts words as md-doc's words() does", () => {
    for (const text of ["", "It's a well-known fact: 3 users, 40% faster.", "--a 'b c-' Éric KELVIN\u212a İstanbul ſ", largePrd(500).markdown]) {
      expect(countWords(text), text).toBe(words(text).length);
    }
  });
});

describe("a cap on the issues returned", () => {
  const text = manySectionsPrd(40_000);
  const before = oldCheckPrd(text);

  it.each([1, 7, 100])("maxIssues %i: the first issues of the full list, all of them counted", (max) => {
    const now = checkPrd(text, { maxIssues: max });
    expect(now.issues).toEqual(before.issues.slice(0, max));
    expect(now).toMatchObject({ totalIssues: before.issues.length, truncated: true, counts: before.counts, stats: before.stats });
  });

  it(`returns ${MAX_ISSUES} by default and says how many there are`, () => {
    const lines = Array.from({ length: 1_500 }, (_, i) => `## Area ${i}\n- fast TODO`).join("\n");
    const now = checkPrd(lines);
    expect(now.issues).toHaveLength(MAX_ISSUES);
    expect(now.totalIssues).toBe(now.counts.high + now.counts.medium + now.counts.low);
    expect(now.totalIssues).toBeGreaterThan(3_000);
    expect(now.truncated).toBe(true);
    expect(now.issues.slice(0, 7).every((i) => i.rule === "missing_section")).toBe(true);
  });
});

const CHARS = 320_000;
/**
 * The whole check, with no time budget: a shape that made a pattern backtrack
 * (minutes) or the check quadratic (19.4 s) fails by the test's timeout.
 * How fast it is, is measured by `npm run bench:prd-check` (docs/benchmarks.md),
 * never by a clock here: the CI machine runs two suites at once.
 */
const whole = (text: string) => checkPrd(text, { budgetMs: Number.POSITIVE_INFINITY });

describe(`a 320 K-character PRD is checked whole (the server stops at ${BUDGET_MS} ms; docs/benchmarks.md has the real numbers)`, () => {
  let words = 30_000;
  let realistic = largePrd(words).markdown;
  while (realistic.length < CHARS) {
    words = Math.ceil((words * CHARS) / realistic.length) + 10;
    realistic = largePrd(words).markdown;
  }
  const shortSections = Array.from({ length: 20_000 }, (_, i) => `## S${i}\n- fast TODO`)
    .join("\n")
    .slice(0, CHARS);

  it.each([
    ["realistic (large-prd.ts)", realistic.slice(0, CHARS)],
    ["many sections (many-sections-prd.ts)", manySectionsPrd(CHARS)],
    ["two-line sections to 320 K (19.4 s before)", shortSections],
  ])("%s", (_name, text) => {
    const result = whole(text);
    expect(result.partial).toBe(false);
    expect(result.totalIssues).toBeGreaterThan(0);
    expect(result.totalIssues).toBe(result.counts.high + result.counts.medium + result.counts.low);
  });
});

describe("hostile text: no backtracking, no RegExp built from it", () => {
  const fill = (unit: string, n = CHARS) => unit.repeat(Math.ceil(n / unit.length)).slice(0, n);
  let seed = 7;
  const rnd = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const randomOf = (alphabet: string) => Array.from({ length: CHARS }, () => alphabet[Math.floor(rnd() * alphabet.length)]).join("");
  const spaces = (n = CHARS - 40) => " ".repeat(n);
  const shapes: [string, string][] = [
    ["(a+)+! × 50", "(a+)+!".repeat(50)],
    ["(a+)+! to 320 K", fill("(a+)+!")],
    ["one letter", fill("a")],
    ["one letter per line", fill("a\n")],
    ["*a *a …", fill("*a ")],
    ["_a _a …", fill("_a ")],
    ["[[[[", fill("[")],
    ["[a]([a](", fill("[a](")],
    ["![![", fill("![")],
    ["<<<<", fill("<")],
    ["[add [add", fill("[add ")],
    ["given given … after a story", `## Stories\nAs a user, I want x ${fill("given ")}`],
    ["as + spaces", `## Stories\nAs${spaces()}x`],
    ["as a + spaces", `## Stories\n- As a${spaces()}x`],
    ["heading + spaces", `## a${spaces()}b`],
    ["label: tbc + spaces", `## Risks\n- Owner: tbc${spaces()}x`],
    ["tbc with + spaces", `## Risks\n| Owner: tbc with${spaces()}${"x".repeat(61)}y |`],
    ["item + spaces + U+2028", `## Goals\n- ${spaces()}a\u2028b`],
    ["TODO + dashes + U+2028", `## Goals\nTODO${"-".repeat(CHARS - 20)}\u2028x`],
    ["dots", `## Goals\n${".".repeat(CHARS - 20)}x`],
    ["ac + spaces after a story", `## Stories\nAs a user, I want x\nac${spaces()}x`],
    ["table rows", `## Risks\n${fill("| a |\n")}`],
    ["table separators", `## Risks\n| a |\n${fill(" |")}x`],
    ["story lines", fill("As a user, I want x\n")],
    ["random punctuation", randomOf("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ \n")],
    ["random brackets", randomOf("[]()<>*_`|!\n ")],
    ["random mix", randomOf("!\"#$%&'()*+,-./:;<=>?@[\\]^_`{|}~ \nabcxyz01")],
  ];

  it.each(shapes)("%s", (_name, text) => {
    const result = whole(text);
    expect(result.partial).toBe(false);
    expect(result.checkedLines).toBe(text.split("\n").length);
  });

  const NativeRegExp = globalThis.RegExp;
  afterEach(() => {
    globalThis.RegExp = NativeRegExp;
  });

  it("builds no RegExp from the PRD's text", () => {
    const built: string[] = [];
    globalThis.RegExp = new Proxy(NativeRegExp, {
      construct(target, args: [string | RegExp, string?]) {
        built.push(String(args[0]));
        return new target(...args);
      },
      apply(target, _this, args: [string | RegExp, string?]) {
        built.push(String(args[0]));
        return target(...args);
      },
    });
    const marker = "Zq9(a+)+[x-";
    const text = `# ${marker}\n\n## ${marker} Goals\n- ${marker} fast\nAs a ${marker}, I want ${marker}\nOwner: tbc with ${marker}\n[insert ${marker}]\nTODO ${marker}`;
    const result = checkPrd(text, { sections: [`${marker}`, "Goals", "(a+)+"] });
    globalThis.RegExp = NativeRegExp;
    expect(result.totalIssues).toBeGreaterThan(3);
    expect(built.filter((source) => source.includes("Zq9") || source.includes("(a+)+"))).toEqual([]);
  });
});

describe("a time budget", () => {
  it("stops when the budget runs out and says where", () => {
    let clock = 0;
    const text = manySectionsPrd(CHARS);
    const result = checkPrd(text, { budgetMs: 5, now: () => (clock += 1) });
    expect(result.partial).toBe(true);
    expect(result.checkedLines).toBeLessThan(text.split("\n").length);
    expect(result.totalIssues).toBe(result.counts.high + result.counts.medium + result.counts.low);
    expect(checkPrd(text).partial).toBe(false);
  });
});
