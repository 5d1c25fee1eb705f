import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { interviewOutline } from "~/ai/builtin/answers";
import type { BuiltinContext } from "~/ai/builtin/contract";
import { capitalise } from "~/ai/builtin/improve-rules";
import { countWordStarts, findAll, findMentions, findPhrase, findWord, trimEndWhere } from "~/utils/literal";
import { offlineTasks } from "~/ai/builtin/offline-tasks";
import { DIAGRAM_TYPES, IMPROVEMENT_TYPES, LAUNCH_CONTENT_TYPES, PRD_STYLES, STORY_SOURCES, TEAM_SIZES } from "~/ai/schemas";
import { checkPrd } from "~/prd-rules/check";

/** The oracles only: the app never compiles user text. */
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Issue 33: user text compiled into regular expressions crashed the offline
 * drafter ("(about 2,600 bookings a year)") and hung the server ("(a+)+" × 50
 * beside a long run of one letter). Every offline tool, the PRD check and
 * the score get random punctuation, brackets, regex metacharacters, unicode,
 * long runs of one character and catastrophic-backtracking shapes, in the
 * places the user's text goes (persona lines, requirement items, section
 * titles, template sections, memories, custom instructions), and must
 * answer without throwing. A shape that backtracks again runs for minutes
 * and fails by the test timeout (how fast each tool is, is measured by the
 * benchmarks, never by a clock here). The pool that runs them
 * off the server's thread under a time budget is tested in
 * tests/api/offline-ai-hostile.test.ts.
 */

const EVIL = `${"(a+)+".repeat(50)}!`;
const META = "\\b[(*+?{|^$.";

/** One hostile piece of text. */
const atom = fc.oneof(
  fc.constantFrom(EVIL, `${"(a+)+ ".repeat(50)}!`, META, "(about 2,600 bookings a year)", "year)", "[(", "\\", "$&", "$1", "(?<x>", "\u202e", "🙂👩‍👩‍👧"),
  fc.string({ unit: fc.constantFrom(..."()[]{}<>|\\^$.*+?!,;:-_#`'\"/&%@=~ \t\n"), maxLength: 60 }),
  fc.string({ unit: "grapheme", maxLength: 30 }),
  // Long runs of one character or of one short unit: the shapes polynomial backtracking needs.
  fc
    .tuple(
      fc.constantFrom("a", "A", "1", " ", "-", "a-", "a ", "- ", "the a ", "users ", "(", "[", "*", "`", "#", ".", "?", "1,", "a: ", "\t", "\n", "é"),
      fc.integer({ min: 50, max: 10_000 }),
    )
    .map(([unit, n]) => unit.repeat(Math.ceil(n / unit.length))),
);
const text = fc.array(atom, { minLength: 1, maxLength: 4 }).chain((parts) => fc.constantFrom(" ", "\n", "", ". ").map((sep) => parts.join(sep)));

/** A PRD built around hostile text: in its title, a persona line, a goal, requirement items and a section of its own. */
const prd = fc
  .tuple(text, text, text)
  .map(
    ([a, b, c]) =>
      `# ${a.slice(0, 200)}\n\n## Problem\n\n${b}\n\n## Target Users\n\nPrimary: front-desk staff ${a}. Secondary: ${c}\n\n## Goals\n\n- Cut ${b} by 20%\n\n## Requirements\n\n- Send an SMS reminder to the ${a}\n- Let the ${c} confirm ${b}\n- ${c}\n\n## ${c.slice(0, 120)}\n\n${a}\n`,
  );

const ctxOf = (t: string): BuiltinContext => ({
  projectName: t.slice(0, 80),
  projectDescription: t.slice(0, 500),
  template: { name: t.slice(0, 60), sections: ["Problem", t.slice(0, 100) || "Notes", "Target Users"], initialQuestion: `${t.slice(0, 100)}?` },
  memories: [{ memoryType: "preference", category: "style", content: t.slice(0, 300), importance: 5 }],
});
const plain: BuiltinContext = { projectName: "Clinic bookings", memories: [] };
const plans = interviewOutline(plain).filter((p) => !p.derived);

/** Every tool the offline drafter answers, plus the PRD check, each fed the hostile text where its user's text goes. */
const TOOLS: Record<string, (t: string, doc: string) => unknown> = {
  chat: (t, doc) =>
    offlineTasks.chat(
      {
        messages: [
          { role: "user", content: doc },
          { role: "assistant", content: t },
          { role: "user", content: t },
        ],
      },
      ctxOf(t),
    ),
  firstQuestion: (t, doc) => offlineTasks.firstQuestion({ ...ctxOf(t), document: doc }),
  builderTurn: (t) =>
    offlineTasks.builderTurn({ qaPairs: plans.slice(0, 3).map((p) => ({ question: p.question, answer: t })), question: t, answer: t }, ctxOf(t)),
  ...Object.fromEntries(
    PRD_STYLES.map((style) => [
      `generatePrd:${style}`,
      (t: string) =>
        offlineTasks.generatePrd(
          {
            style,
            qaPairs: plans.map((p, i) => ({
              question: p.question,
              answer: i === 2 ? `Primary: front-desk staff ${t}. Secondary: ${t}` : i === 3 ? `- Send a reminder to ${t}\n- ${t}\n- Let the ${t} cancel` : t,
            })),
          },
          plain,
        ),
    ]),
  ),
  generatePrdTemplate: (t, doc) => offlineTasks.generatePrd({ style: "comprehensive", qaPairs: [{ question: t, answer: t }] }, { ...ctxOf(t), document: doc }),
  coach: (_, doc) => offlineTasks.coach({ prdContent: doc }, plain),
  score: (_, doc) => offlineTasks.score({ prdContent: doc }, plain),
  scoreRaw: (t) => offlineTasks.score({ prdContent: t }, ctxOf(t)),
  suggestions: (_, doc) => offlineTasks.suggestions({ content: doc }, plain),
  ...Object.fromEntries(
    STORY_SOURCES.map((source) => [
      `userStories:${source}`,
      (t: string, doc: string) => offlineTasks.userStories({ content: source === "prd" ? doc : t, source }, ctxOf(t)),
    ]),
  ),
  technicalSpecs: (t, doc) => offlineTasks.technicalSpecs({ prdContent: doc, focusAreas: [t.slice(0, 100), "security"] }, plain),
  ...Object.fromEntries(
    TEAM_SIZES.map((teamSize) => [
      `roadmap:${teamSize}`,
      (t: string, doc: string) => offlineTasks.roadmap({ prdContent: doc, teamSize, methodology: t.slice(0, 50) }, plain),
    ]),
  ),
  codeSpec: (_, doc) => offlineTasks.codeSpec({ content: doc }, plain),
  ...Object.fromEntries(
    LAUNCH_CONTENT_TYPES.map((contentType) => [
      `launchContent:${contentType}`,
      (_: string, doc: string) => offlineTasks.launchContent({ content: doc, contentType }, plain),
    ]),
  ),
  ...Object.fromEntries(
    DIAGRAM_TYPES.map((diagramType) => [
      `wireframe:${diagramType}`,
      (t: string, doc: string) => offlineTasks.wireframe({ content: doc, diagramType, section: t.slice(0, 100) }, plain),
    ]),
  ),
  ...Object.fromEntries(
    IMPROVEMENT_TYPES.map((improvementType) => [`improve:${improvementType}`, (t: string) => offlineTasks.improve({ content: t, improvementType }, plain)]),
  ),
  improveCustom: (t, doc) => offlineTasks.improve({ content: doc, improvementType: "improve_writing", customPrompt: t.slice(0, 2_000) }, plain),
  writingNotes: (t, doc) => offlineTasks.writingNotes({ content: doc, improvementType: "add_detail", customPrompt: t.slice(0, 2_000) }),
  extractMemories: (t) =>
    offlineTasks.extractMemories(
      {
        conversation: [
          { role: "user", content: t },
          { role: "assistant", content: t },
          { role: "user", content: `We decided ${t}` },
        ],
      },
      plain,
    ),
  documentAnalysis: (t, doc) => offlineTasks.documentAnalysis({ text: doc, filename: `${t.slice(0, 40)}.md` }),
  check: (t, doc) => checkPrd(doc, { sections: [t.slice(0, 100), "Problem"] }),
  checkDefault: (_, doc) => checkPrd(doc),
  // The same check as the worker thread runs it for a long text (app/domain/prd/check-cache.server.ts).
  checkPrd: (t, doc) => offlineTasks.checkPrd(`${doc}\n${t}`, { sections: ["Problem", "Goals"] }),
};

describe("every offline tool, the check and the score on hostile text", () => {
  it("lists every task the worker thread can run", () => {
    const covered = new Set(Object.keys(TOOLS).map((name) => name.split(":")[0]!.replace(/Template|Raw|Custom$/, "")));
    for (const task of Object.keys(offlineTasks)) expect(covered, task).toContain(task);
  });

  it("answers the issue's two inputs: the persona in brackets, and (a+)+ × 50 beside a long run of one letter", () => {
    const pairs = plans.map((p, i) => ({
      question: p.question,
      answer:
        [
          "Patients miss appointments.",
          "Cut no-shows by 20%",
          "Primary: front-desk staff (about 2,600 bookings a year). Secondary: clinic managers.",
          "- Send an SMS reminder 48 hours before\n- Let the patient confirm for the year",
        ][i] ?? "",
    }));
    expect(offlineTasks.generatePrd({ style: "comprehensive", qaPairs: pairs }, plain)).toContain("2,600");
    const value = offlineTasks.userStories(
      { content: `## Users\n\nPrimary: ${EVIL}\n\n## Requirements\n\n- Send ${"a".repeat(40)}\n- ${"a".repeat(5_000)}`, source: "prd" },
      plain,
    );
    expect(value).toContain("# User Stories");
  });

  for (const [name, tool] of Object.entries(TOOLS)) {
    it(`${name}: never throws and answers`, () => {
      fc.assert(
        fc.property(text, prd, (t, doc) => {
          expect(tool(t, doc)).toBeDefined();
        }),
        { numRuns: 12, seed: 33_4 },
      );
    });
  }
});

describe("the plain-text matchers that replaced patterns built from user text", () => {
  const word = fc.string({ unit: fc.constantFrom(..."abAB_1"), minLength: 1, maxLength: 4 });
  const around = fc.string({ unit: fc.constantFrom(..."abAB_1 -.()s"), maxLength: 30 });

  it("findWord finds a word (with -s / -es) exactly where \\b…\\b would, for words of word characters", () => {
    fc.assert(
      fc.property(word, around, (w, t) => {
        const re = new RegExp(`\\b${escapeRegExp(w)}(?:s|es)?\\b`, "i");
        expect(findWord(t, w, ["s", "es"]) !== null).toBe(re.test(t));
      }),
      { numRuns: 2_000 },
    );
  });

  it("findWord treats brackets and metacharacters as text", () => {
    expect(findWord("about 2,600 bookings a year) later", "year)")).toEqual({ start: 23, end: 28 });
    expect(findWord("aaaa", EVIL)).toBeNull();
    expect(findWord(`${EVIL} here`, EVIL)).toEqual({ start: 0, end: EVIL.length });
  });

  it("findPhrase finds the words of a name with any whitespace between them, as written", () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 3 }), around, (ws, t) => {
        const re = new RegExp(ws.map(escapeRegExp).join("\\s+"), "i");
        expect(findPhrase(t, ws.join(" "))).toBe(re.exec(t)?.[0] ?? null);
      }),
      { numRuns: 2_000 },
    );
    expect(findPhrase("Send the SMS\n reminder (a+)+ now", "sms reminder (a+)+")).toBe("SMS\n reminder (a+)+");
  });

  it("countWordStarts counts what the topic cues' pattern counted for a section title's stems", () => {
    const stem = fc.string({ unit: fc.constantFrom(..."abc"), minLength: 1, maxLength: 3 });
    fc.assert(
      fc.property(stem, around, (w, t) => {
        const re = new RegExp(`(?:^|[^a-z0-9])(?:${escapeRegExp(w)})`, "gi");
        expect(countWordStarts(t, w, 2)).toBe(Math.min(2, t.match(re)?.length ?? 0));
      }),
      { numRuns: 2_000 },
    );
  });

  it("findAll finds what an alternation of the needles, longest first, finds", () => {
    fc.assert(
      fc.property(fc.array(word, { minLength: 1, maxLength: 4 }), around, (needles, t) => {
        const re = new RegExp(
          [...needles]
            .sort((a, b) => b.length - a.length)
            .map(escapeRegExp)
            .join("|"),
          "gi",
        );
        expect(findAll(t, needles).map((r) => t.slice(r.start, r.end))).toEqual([...t.matchAll(re)].map((m) => m[0]));
      }),
      { numRuns: 2_000 },
    );
    expect(findAll("a (a+)+ b", ["(a+)+"])).toEqual([{ start: 2, end: 7 }]);
  });

  it("findMentions finds @name where the mention pattern it replaced did", () => {
    const name = fc.string({ unit: fc.constantFrom(..."aéB_1 ."), minLength: 1, maxLength: 5 });
    const text = fc.string({ unit: fc.constantFrom(..."aéB_1 .@x"), maxLength: 30 });
    fc.assert(
      fc.property(name, text, (n, t) => {
        const re = new RegExp(`(^|[^\\p{L}\\p{N}_@])@${escapeRegExp(n)}(?![\\p{L}\\p{N}_])`, "giu");
        expect(findMentions(t, n).length > 0).toBe(re.test(t));
      }),
      { numRuns: 2_000 },
    );
    expect(findMentions("cc @Adam and me@ada", "Ada")).toEqual([]);
    expect(findMentions("cc @ada.", "Ada")).toEqual([{ start: 3, end: 7 }]);
  });

  it("trimEndWhere cuts what /[\\s.;:,!?]+$/ cuts, from the end", () => {
    fc.assert(
      fc.property(around, (t) => {
        expect(trimEndWhere(t, (c) => /[\s.;:,!?]/.test(c))).toBe(t.replace(/[\s.;:,!?]+$/, ""));
      }),
      { numRuns: 2_000 },
    );
  });

  it("capitalise starts sentences as its old global pattern did, without rescanning every run of non-spaces", () => {
    const ABBREV = /\b(?:e\.g|i\.e|etc|vs|approx|incl|cf|no|fig|ca)\.$/i;
    const capWord = (w: string) => (/^[a-z][a-z'-]*$/.test(w) ? w.charAt(0).toUpperCase() + w.slice(1) : w);
    const old = (t: string) =>
      t.replace(/([^\s]*[.!?])(\s+["“(]?)([a-z][a-z'-]*)(?=[\s,.;:!?]|$)/g, (m, before: string, gap: string, w: string) =>
        ABBREV.test(before) || /[/\\]|\.\w/.test(before.slice(0, -1)) ? m : before + gap + capWord(w),
      );
    const sentence = fc.string({ unit: fc.constantFrom(...'ab. !?,\n"(/eg.i'), maxLength: 40 });
    fc.assert(
      fc.property(sentence, (t) => {
        expect(capitalise(t, false)).toBe(old(t));
      }),
      { numRuns: 3_000 },
    );
    expect(capitalise(`${"a".repeat(50_000)}. b`, false)).toBe(`${"a".repeat(50_000)}. B`);
  });
});
