import { describe, expect, it } from "vitest";
import { answerUnits, labelledUnits } from "~/ai/builtin/answer-units";
import { interviewOutline } from "~/ai/builtin/answers";
import type { BuiltinContext, QaPair } from "~/ai/builtin/contract";
import { generatePrd } from "~/ai/builtin/prd";
import { userStories } from "~/ai/builtin/specs";
import { mulberry32 } from "../../scripts/seed-content";

/**
 * The offline drafter never makes the user's text worse, checked
 * over generated interviews: numbered and bulleted lists (on their own lines
 * and inline), label lines ("Primary: …", "Risk: … Mitigation: …"), empty and
 * off-topic answers. Inputs come from a seeded generator, so a failure
 * names the seed that reproduces it.
 */

const CAPABILITIES = [
  "Send an SMS reminder 48 hours before each appointment",
  "Let the patient confirm or cancel by replying C or X",
  "Show receptionists the confirmation status beside each booking",
  "Export the week's no-shows as a CSV file for the clinic manager",
  "Stop reminders for patients who opted out",
  "Resend a reminder when the first SMS bounces",
];
const PERSONAS = ["front-desk receptionists", "clinic managers", "patients booking for their children", "dental hygienists"];
const RISKS: [string, string][] = [
  ["SMS costs exceed the 400 EUR monthly budget", "cap the volume and alert the manager at 80% of the budget"],
  ["patients reply with free text the system cannot read", "forward unreadable replies to the front desk within 5 minutes"],
  ["reminders reach an old number after a patient moves", "ask patients to confirm their number at every visit"],
];
const OFF_TOPIC = ["I like turtles.", "The weather was nice yesterday.", "ok", "", "?", "not sure yet"];

function interview(seed: number) {
  const r = mulberry32(seed);
  const pick = <T>(xs: T[]) => xs[Math.floor(r() * xs.length)]!;
  const some = <T>(xs: T[], min = 1) =>
    xs
      .filter(() => r() < 0.6)
      .concat(xs.slice(0, min))
      .filter((x, i, all) => all.indexOf(x) === i);
  const list = (items: string[]) => {
    const style = pick(["numbered", "inline", "bullets", "stars", "sentences", "table"]);
    if (style === "table") return ["| Item | Note |", "| --- | --- |", ...items.map((t) => `| ${t} | |`)].join("\n");
    if (style === "numbered") return items.map((t, i) => `${i + 1}. ${t}`).join("\n");
    if (style === "inline") return items.map((t, i) => `${i + 1}. ${t}.`).join(" ");
    if (style === "bullets") return items.map((t) => `- ${t}`).join("\n");
    if (style === "stars") return items.map((t) => `* ${t}`).join("\n");
    return items.map((t) => `${t}.`).join(" ");
  };
  const personas = some(PERSONAS);
  const risks = some(RISKS);
  const goals = some([
    "Cut no-shows from 18% to 9% by June 2027",
    "Keep the SMS opt-out rate under 2% a month",
    "Save receptionists 2 hours a day by March 2027",
  ]);
  const answers: Record<string, string> = {
    problem: pick(["Patients miss 18% of appointments at our 12 clinics; each no-show costs 120 EUR.", ...OFF_TOPIC]),
    goals: r() < 0.85 ? list(goals) : pick(OFF_TOPIC),
    users: r() < 0.85 ? (r() < 0.5 ? `Primary: ${personas[0]}.${personas[1] ? ` Secondary: ${personas[1]}.` : ""}` : list(personas)) : pick(OFF_TOPIC),
    requirements: r() < 0.9 ? list(some(CAPABILITIES, 2)) : pick(OFF_TOPIC),
    scope: pick(["In scope: SMS reminders. Out of scope: email and voice calls.", ...OFF_TOPIC]),
    risks: r() < 0.85 ? risks.map(([risk, m]) => `Risk: ${risk}. Mitigation: ${m}.`).join(pick(["\n", " "])) : pick(OFF_TOPIC),
    release: pick(["Pilot in 2 clinics in March 2027, GA 10 weeks after.", ...OFF_TOPIC]),
  };
  return { answers, personas, risks, goals };
}

const ctx: BuiltinContext = { memories: [], projectName: "Dental reminders", projectDescription: "Appointment reminders for a dental booking app" };

function pairsFor(answers: Record<string, string>): QaPair[] {
  const plans = interviewOutline(ctx).filter((p) => !p.derived);
  const order = ["problem", "goals", "users", "requirements", "scope", "risks", "release"];
  return plans.map((p, i) => ({ question: p.question, answer: answers[order[i]!] ?? "" }));
}

/** Body lines of list items, without their markers and bold labels ("**FR-1**:"). */
function listItems(prd: string) {
  return prd
    .split("\n")
    .filter((l) => /^\s*(?:[-*+]|\d+[.)])\s+/.test(l))
    .map((l) =>
      l
        .replace(/^\s*(?:[-*+]|\d+[.)])\s+(?:\[[ xX]\]\s+)?/, "")
        .replace(/^\*\*[^*]+\*\*(?:\s*\([^)]*\))?:?\s*/, "")
        .trim(),
    );
}
const wordCount = (t: string) => (t.match(/[\p{L}\p{N}][\p{L}\p{N}'’-]*/gu) ?? []).length;

describe("answerUnits", () => {
  it("keeps list items whole, splits inline numbered lists, keeps a mitigation with its risk, and never yields a bare marker", () => {
    expect(answerUnits("1. Cut no-shows to 9%. 2. Keep opt-outs under 2%.")).toEqual(["Cut no-shows to 9%.", "Keep opt-outs under 2%."]);
    expect(answerUnits("1. Send a reminder. Include the address.\n2. Confirm by reply")).toEqual(["Send a reminder. Include the address.", "Confirm by reply"]);
    // The label is read off and kept as the statement's label; the mitigation stays with its risk.
    expect(labelledUnits("Risk: costs grow. Mitigation: cap the volume.")).toEqual([{ text: "Costs grow. Mitigation: cap the volume.", label: "risk" }]);
    expect(answerUnits("1.\n2)\n- \n* ok")).toEqual([]);
    // A table's rows are statements, labelled by the headers; its intro line is not.
    expect(answerUnits("Our goals:\n\n| Metric | Today | Target |\n| --- | --- | --- |\n| No-show rate | 18% | 9% by June 2027 |")).toEqual([
      "No-show rate: today 18%, target 9% by June 2027",
    ]);
    expect(answerUnits("Metric\tToday\tTarget\nNo-show rate\t18%\t9%")).toEqual(["No-show rate: today 18%, target 9%"]);
  });
});

describe("the offline PRD, over 200 generated interviews", () => {
  const SEEDS = Array.from({ length: 200 }, (_, i) => i + 1);

  it("never writes a list item of fewer than two words, nor a story that wants a question", () => {
    for (const seed of SEEDS) {
      const { answers } = interview(seed);
      const prd = generatePrd({ style: "comprehensive", qaPairs: pairsFor(answers) }, ctx);
      for (const item of listItems(prd)) expect(wordCount(item), `seed ${seed}: “${item}”`).toBeGreaterThanOrEqual(2);
      for (const m of prd.matchAll(/\bI want (?:to )?([^,\n]*)/g)) {
        expect(m[1], `seed ${seed}`).not.toMatch(/^(?:open question|should|which|what|how|when|who|why)\b|\?/i);
      }
    }
  });

  it("derives stories whose every “I want” is a verb phrase, each with criteria of its own", () => {
    for (const seed of SEEDS) {
      const { answers } = interview(seed);
      const stories = userStories({ content: generatePrd({ style: "comprehensive", qaPairs: pairsFor(answers) }, ctx), source: "prd" }, ctx);
      for (const m of stories.matchAll(/\bI want ([^,\n]*)/g)) {
        expect(m[1], `seed ${seed}`).toMatch(/^(?:to [a-z]+|the product to [a-z]+|to be [a-z]+|(?:an?|the) [a-z]+)\b/);
        expect(m[1], `seed ${seed}`).not.toMatch(/^to (?:let|show|allow|guardrail|open question|primary|secondary)\b|\?/i);
      }
      const criteria = stories.split("\n").filter((l) => /^- (?:Given|[A-Z])/.test(l) && !/^- _/.test(l));
      expect(new Set(criteria).size, `seed ${seed}: a criterion repeats`).toBe(criteria.length);
    }
  });

  it("keeps every mitigation, persona and goal the user stated, and invents no number", () => {
    for (const seed of SEEDS) {
      const { answers, personas, risks, goals } = interview(seed);
      const prd = generatePrd({ style: "comprehensive", qaPairs: pairsFor(answers) }, ctx);
      const lower = prd.toLowerCase();
      if (answers.risks!.includes("Mitigation:")) for (const [, m] of risks) expect(lower, `seed ${seed}: mitigation “${m}”`).toContain(m.toLowerCase());
      for (const p of personas.filter((p) => answers.users!.includes(p))) expect(lower, `seed ${seed}: persona “${p}”`).toContain(p.toLowerCase());
      if (answers.goals!.includes("by")) for (const g of goals) expect(lower, `seed ${seed}: goal “${g}”`).toContain(g.toLowerCase().slice(0, 30));
      expect(prd, `seed ${seed}`).not.toMatch(/to be agreed|priority to confirm/i);
      // Every figure in the text comes from the answers (ids, list numbers and "Story n" aside).
      const given = new Set(
        Object.values(answers)
          .join(" ")
          .match(/\d+(?:[.,]\d+)?/g) ?? [],
      );
      const body = prd
        .split("\n")
        // Headings, and the draft's own note of how many answers it was written from.
        .filter((l) => !/^#/.test(l) && !/^_Draft · /.test(l))
        .map((l) =>
          l
            .replace(/^\s*\d+[.)]\s+/, "")
            .replace(/\*\*(?:FR|NFR|REQ|US)-\d+\*\*/g, "")
            .replace(/\bStory \d+\b/g, ""),
        )
        .join("\n");
      for (const n of body.match(/\d+(?:[.,]\d+)?/g) ?? []) expect(given.has(n), `seed ${seed}: the number ${n} was never given`).toBe(true);
    }
  });
});
