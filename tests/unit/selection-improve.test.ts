import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { improve } from "~/ai/builtin/improve";
import type { ImprovementType } from "~/ai/schemas";

/**
 * "AI on a selection" (docs/ai.md): the rich editor sends a selected
 * sentence, list, heading line or a few paragraphs to POST /api/ai/improve.
 * Without a provider the offline drafter answers, and it must never make
 * the user's text worse. These properties are checked over every sentence,
 * list item, heading, paragraph and short run of blocks of the calibration
 * PRDs, for the four selection actions and for custom instructions.
 */

const DIR = join(import.meta.dirname, "../fixtures/calibration");
const FILES = readdirSync(DIR)
  .filter((f) => /^\d\d-.*\.md$/.test(f))
  .sort();
const DOCS = FILES.map((f) => readFileSync(join(DIR, f), "utf8"));

/** The blocks of a document: runs of lines between blank lines, with code fences kept whole. */
function blocks(doc: string): string[] {
  const out: string[] = [];
  let current: string[] = [];
  let fenced = false;
  for (const line of doc.replace(/\r\n?/g, "\n").split("\n")) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (!fenced && !line.trim()) {
      if (current.length) out.push(current.join("\n"));
      current = [];
    } else current.push(line);
  }
  if (current.length) out.push(current.join("\n"));
  return out;
}

const MARKER = /^(\s*(?:#{1,6}\s+|>\s*)?(?:(?:[-*+]|\d+[.)])\s+)?)/;
const isTable = (block: string) => block.split("\n").every((l) => /^\s*\|/.test(l));
const isCode = (block: string) => /^\s*(```|~~~)/.test(block);

/** What a user selects: a heading line, a list item, a sentence, a paragraph, a list. */
function selections(doc: string) {
  const out = new Set<string>();
  for (const block of blocks(doc)) {
    if (isCode(block)) continue;
    out.add(block);
    if (isTable(block)) continue;
    for (const line of block.split("\n")) {
      if (!line.trim()) continue;
      out.add(line.trim() === line ? line : line.trimStart());
      const text = line.replace(MARKER, "");
      const sentences = text.split(/(?<=[.!?])\s+(?=["“(*]*[A-Z0-9])/);
      if (sentences.length > 1) for (const s of sentences) if (s.trim()) out.add(s.trim());
    }
  }
  return [...out];
}

const SELECTIONS = DOCS.flatMap(selections);
const ALL_BLOCKS = DOCS.map((d) => blocks(d).filter((b) => !isCode(b)));

const ACTIONS: ImprovementType[] = ["improve_writing", "make_concise", "add_detail", "add_metrics"];
/** Instructions the offline drafter has no rule for: the text comes back unchanged. */
const UNDOABLE = ["Make it sound more persuasive", "Translate this into French", "Rewrite it as a haiku", "Make the tone friendlier"];
/** Instructions it can map to one of its rules. */
const DOABLE = ["Fix the spelling", "Make it shorter", "Add metrics", "Tighten the wording"];

const run = (content: string, improvementType: ImprovementType, customPrompt?: string) => improve({ content, improvementType, customPrompt }, { memories: [] });

// ---------- what "never worse" means, measured ----------

const numbers = (s: string) => new Set(s.match(/\d+(?:[.,:/]\d+)*/g) ?? []);

/** Names: words with a capital inside ("NetSuite", "UBL", "iOS") or capitalised mid-sentence ("Marta", "March"). */
function names(s: string) {
  const out = new Set<string>();
  for (const m of s.matchAll(/[A-Za-z][\w'’-]*/g)) {
    const word = m[0];
    if (/^I(?:['’](?:m|ve|ll|d))?$/.test(word)) continue;
    const before = s.slice(0, m.index).replace(/[\s*_"“(]+$/, "");
    const midSentence = /[\p{L}\d,;]$/u.test(before);
    if (/.[A-Z]/.test(word) || (/^[A-Z]/.test(word) && midSentence)) out.add(word);
  }
  return out;
}

/** The words that carry a requirement's force and scope. */
const REQUIREMENT_WORDS = [
  "must",
  "shall",
  "should",
  "will",
  "may",
  "cannot",
  "never",
  "not",
  "no",
  "only",
  "always",
  "all",
  "required",
  "mandatory",
  "without",
  "unless",
];
const countWord = (s: string, w: string) => (s.toLowerCase().match(new RegExp(`\\b${w}\\b`, "g")) ?? []).length;

/** Words the concision rules are allowed to drop or replace ("in order to" → "to", "basically", "I think"…). */
const DROPPABLE = new Set(
  (
    "in order due the fact that spite at this point time present event for purpose with regard respect regards a large significant number " +
    "vast majority is are able has ability make decision take into consideration prior until such as each and first foremost absolutely " +
    "end future it it's important to note should be noted needless say matter all intents purposes i think believe feel basically actually " +
    "literally really very quite just simply totally kind sort of"
  ).split(" "),
);
const words = (s: string) => (s.toLowerCase().match(/[a-z][a-z'’-]*/g) ?? []).map((w) => w.replace(/’/g, "'"));

const lineMarkers = (s: string) =>
  s
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => MARKER.exec(l)![1]!.trim());

function isSubsequence<T>(small: T[], big: T[]) {
  let j = 0;
  for (const x of big) if (j < small.length && x === small[j]) j++;
  return j === small.length;
}

/** The offline drafter's marked prompts: the only lines the "add" actions may add. */
const ADDED_LINE = /^\s*(?:- )?_(?:Detail to add|Metric to define|Timeframe to define):_ /;

/** Every way `output` is worse than `input`, in words (empty when it is not). */
function worse(input: string, output: string, type: ImprovementType): string[] {
  const out: string[] = [];
  const check = (ok: boolean, what: string) => {
    if (!ok) out.push(what);
  };
  for (const n of numbers(input)) check(numbers(output).has(n), `lost the number ${n}`);
  for (const n of numbers(output)) check(numbers(input).has(n), `invented the number ${n}`);
  const outNames = new Set(output.match(/[A-Za-z][\w'’-]*/g) ?? []);
  for (const name of names(input)) check(outNames.has(name), `lost the name ${name}`);
  for (const w of REQUIREMENT_WORDS) check(countWord(output, w) >= countWord(input, w), `lost "${w}"`);
  const outWords = words(output);
  const outSet = new Set(outWords);
  const inWords = words(input);
  inWords.forEach((w, i) => {
    // A hedge after "not" is not filler: "not quite ready", "not just reminders".
    if (!DROPPABLE.has(w) || inWords[i - 1] === "not") check(outSet.has(w), `lost the word "${w}"`);
  });
  for (const [i, w] of inWords.entries())
    if (w === "not" && inWords[i + 1]) check(outWords.join(" ").includes(`not ${inWords[i + 1]}`), `changed "not ${inWords[i + 1]}"`);
  check(isSubsequence(lineMarkers(input), lineMarkers(output)), "lost a list or heading marker");
  check(lineMarkers(output)[0] === lineMarkers(input)[0], "starts with another marker");
  if (type === "make_concise") check(output.length <= input.length, `longer (${output.length} > ${input.length})`);
  if (type === "add_detail" || type === "add_metrics") {
    const inLines = input.split("\n");
    const outLines = output.split("\n");
    check(isSubsequence(inLines, outLines), "changed a line of the input");
    let j = 0;
    for (const line of outLines) {
      if (j < inLines.length && line === inLines[j]) j++;
      else check(!line.trim() || ADDED_LINE.test(line), `added something other than a marked prompt: ${line}`);
    }
  }
  check(!/_Instruction noted:/.test(output), "wrote a note about the instruction into the text");
  return out;
}

/** All failures over many selections, reported together with the input and output of each. */
function expectNeverWorse(cases: { input: string; output: string; type: ImprovementType; label: string }[]) {
  const failures = cases.flatMap(({ input, output, type, label }) => {
    const why = worse(input, output, type);
    return why.length ? [`[${label}] ${why.join("; ")}\n--- input ---\n${input}\n--- output ---\n${output}`] : [];
  });
  expect(failures.length, failures.slice(0, 8).join("\n\n")).toBe(0);
}

/**
 * Noise a user's selection may carry, put into the fixtures' clean text:
 * filler and hedges the concision rules remove, doubled words, a missing
 * space after a comma, and things that look like what the rules fix but
 * are not (a name that repeats a word, an acronym spelled like a typo,
 * "whether or not", "not quite").
 */
const NOISE = [
  "basically ",
  "really ",
  "very ",
  "actually ",
  "I think ",
  "in order to ",
  "each and every ",
  "it is important to note that ",
  "whether or not ",
  "not quite ",
  "not just ",
  "just ",
  "this kind of ",
  "Walla Walla ",
  "Bora Bora ",
  "IM ",
  "USR ",
  "THATS ",
];

const noisy = fc
  .record({
    base: fc.constantFrom(...SELECTIONS.filter((s) => /[a-z]{3,} [a-z]{3,}/.test(s) && !isTable(s))),
    inserts: fc.array(fc.record({ at: fc.nat(), noise: fc.constantFrom(...NOISE) }), { minLength: 1, maxLength: 4 }),
    doubled: fc.option(fc.nat(), { nil: undefined }),
    squeezeComma: fc.boolean(),
  })
  .map(({ base, inserts, doubled, squeezeComma }) => {
    let text = base;
    for (const { at, noise } of inserts) {
      // Before a lowercase word that is neither "not", nor filler, nor after "not" (so "not basically" is never made up).
      const spots = [...text.matchAll(/(?<=(?:^|[^\n]) )(?<!\bnot )[a-z]{3,}\b/g)].filter((m) => m[0] !== "not" && !DROPPABLE.has(m[0])).map((m) => m.index);
      if (spots.length) {
        const i = spots[at % spots.length]!;
        text = text.slice(0, i) + noise + text.slice(i);
      }
    }
    if (doubled !== undefined) {
      const spots = [...text.matchAll(/\b(?:is|the|and|to)\b(?= )/g)];
      const m = spots.length ? spots[doubled % spots.length] : undefined;
      if (m) text = `${text.slice(0, m.index + m[0].length)} ${m[0]}${text.slice(m.index + m[0].length)}`;
    }
    if (squeezeComma) text = text.replace(/, (?=[a-z])/, ",");
    return text;
  });

describe("the offline drafter on a selection", () => {
  it("has selections to check: sentences, list items, headings, paragraphs and lists", () => {
    expect(FILES).toHaveLength(12);
    expect(SELECTIONS.length).toBeGreaterThan(500);
    expect(SELECTIONS.some((s) => /^## /.test(s))).toBe(true);
    expect(SELECTIONS.some((s) => /^- /.test(s) && !s.includes("\n"))).toBe(true);
    expect(SELECTIONS.some((s) => /^\d+\. /.test(s))).toBe(true);
    expect(SELECTIONS.some((s) => s.split("\n").length >= 3 && /^- /m.test(s))).toBe(true);
  });

  for (const type of ACTIONS) {
    it(`${type}: keeps every number, name, requirement word and Markdown marker of every selection`, () => {
      expectNeverWorse(SELECTIONS.map((input) => ({ input, output: run(input, type), type, label: type })));
    });
  }

  it("a custom instruction it has a rule for is carried out under the same guarantees", () => {
    for (const instruction of DOABLE) {
      expectNeverWorse(SELECTIONS.map((input) => ({ input, output: run(input, "improve_writing", instruction), type: "improve_writing", label: instruction })));
    }
  });

  it("a custom instruction it cannot carry out offline leaves the text exactly as it was", () => {
    for (const instruction of UNDOABLE) {
      for (const type of ACTIONS) for (const s of SELECTIONS) expect(run(s, type, instruction), `${instruction} / ${type}`).toBe(s);
    }
  });

  it("short passages (a few consecutive blocks) keep the guarantees for every action", () => {
    const passage = fc
      .record({ doc: fc.integer({ min: 0, max: ALL_BLOCKS.length - 1 }), start: fc.nat(), length: fc.integer({ min: 1, max: 4 }) })
      .map(({ doc, start, length }) => {
        const all = ALL_BLOCKS[doc]!;
        const from = start % all.length;
        return all.slice(from, from + length).join("\n\n");
      });
    fc.assert(
      fc.property(passage, fc.constantFrom(...ACTIONS), (text, type) => {
        expect(worse(text, run(text, type), type), text).toEqual([]);
      }),
      { numRuns: 400, seed: 21 },
    );
  });

  it("selections with filler, doubled words and look-alikes keep the guarantees for every action and instruction", () => {
    fc.assert(
      fc.property(
        noisy,
        fc.constantFrom<[ImprovementType, string | undefined]>(
          ...ACTIONS.map((a) => [a, undefined] as [ImprovementType, undefined]),
          ...DOABLE.map((d) => ["improve_writing", d] as [ImprovementType, string]),
        ),
        (text, [type, instruction]) => {
          expect(worse(text, run(text, type, instruction), type), `${type} ${instruction ?? ""}\n${text}\n→\n${run(text, type, instruction)}`).toEqual([]);
        },
      ),
      { numRuns: 1500, seed: 7 },
    );
  });

  it("make_concise does cut the noise it is given", () => {
    const text = "Staff basically need to make a decision in order to confirm each and every booking 48 hours ahead.";
    expect(run(text, "make_concise")).toBe("Staff basically need to decide to confirm every booking 48 hours ahead.");
    expect(run("- It is is very slow,so we should literally fix it.", "make_concise")).toBe("- It is slow,so we should fix it.");
  });

  it("keeps qualifiers that carry meaning: the writer's claim is not filler", () => {
    for (const type of ["make_concise", "improve_writing"] as const) {
      expect(run("The export is basically done.", type)).toBe("The export is basically done.");
      expect(run("We don't really need SMS.", type)).toBe("We don't really need SMS.");
      expect(run("I think the pilot ward is not quite ready.", type)).toBe("I think the pilot ward is not quite ready.");
      expect(run("The sync is kind of slow on roughly 120 phones.", type)).toBe("The sync is kind of slow on roughly 120 phones.");
    }
  });

  it("keeps what only looks like filler, a doubled word or a typo", () => {
    const concise = (t: string) => run(t, "make_concise");
    expect(concise("Send the reminder whether or not the patient confirmed.")).toBe("Send the reminder whether or not the patient confirmed.");
    expect(concise("We need not just reminders but also a waitlist.")).toBe("We need not just reminders but also a waitlist.");
    expect(concise("Just admins can delete a clinic.")).toBe("Just admins can delete a clinic.");
    expect(concise("This kind of invoice is not quite ready for review.")).toBe("This kind of invoice is not quite ready for review.");
    expect(run("Clinics in Walla Walla use IM and email.", "improve_writing")).toBe("Clinics in Walla Walla use IM and email.");
  });

  it("splits a long sentence between clauses, not inside a list, and keeps a name's case", () => {
    const long =
      "Capture invoices from the mailbox in PDF, PNG, JPEG, and UBL formats sent by suppliers from every region of the company over the whole year, and iOS users can upload photos from the app.";
    expect(run(long, "improve_writing")).toBe(
      "Capture invoices from the mailbox in PDF, PNG, JPEG, and UBL formats sent by suppliers from every region of the company over the whole year. iOS users can upload photos from the app.",
    );
  });

  it("keeps a list marker or heading marker and adds only marked prompts", () => {
    expect(run("## Goals and metrics", "add_metrics")).toBe("## Goals and metrics\n\n_Metric to define:_ baseline → target by <date>.");
    expect(run("- FR-1: The system must send reminders 48 hours ahead.", "add_detail")).toBe(
      "- FR-1: The system must send reminders 48 hours ahead.\n  - _Detail to add:_ when or how often, how it is verified.",
    );
    expect(run("3. the clinic  confirms the slot .", "improve_writing")).toBe("3. The clinic confirms the slot.");
  });

  it("under an instruction does only what it asks for and writes no note into the text", () => {
    expect(run("The reminders are sent by the clerk.", "improve_writing")).toBe("The reminders are sent by the clerk.");
    expect(run("The reminders are sent by teh clerk.", "improve_writing", "Fix the spelling")).toBe("The reminders are sent by the clerk.");
    expect(run("The reminder goes out 48 hours ahead.", "improve_writing", "Don't add metrics")).toBe("The reminder goes out 48 hours ahead.");
    expect(run("Cut no-shows from 18% to 9%.", "improve_writing", "Keep the numbers")).toBe("Cut no-shows from 18% to 9%.");
    // An instruction against something the rules remove is carried out.
    expect(run("We will basically leverage the ERP export.", "fix_grammar", "Keep it short, no jargon")).toBe("We will basically use the ERP export.");
  });

  it("is deterministic: the same selection gives the same suggestion", () => {
    for (const type of ACTIONS) for (const s of SELECTIONS.slice(0, 50)) expect(run(s, type)).toBe(run(s, type));
  });
});
