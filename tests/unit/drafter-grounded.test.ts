import { describe, expect, it } from "vitest";
import { interviewOutline } from "~/ai/builtin/answers";
import type { BuiltinContext } from "~/ai/builtin/contract";
import { launchContent } from "~/ai/builtin/launch";
import { wireframe } from "~/ai/builtin/mermaid";
import { namedPersonas } from "~/ai/builtin/personas";
import { generatePrd } from "~/ai/builtin/prd";
import { checkPrd } from "~/prd-rules/check";
import { roadmap } from "~/ai/builtin/roadmap";
import { technicalSpecs, userStories } from "~/ai/builtin/specs";

/**
 * Derived documents stay grounded in what the user wrote: the
 * dental-reminders interview from the issue, through the PRD into stories,
 * the technical spec, the roadmap, launch copy and a flow diagram.
 */

const ctx: BuiltinContext = {
  memories: [],
  projectName: "Dental reminders",
  projectDescription: "Appointment reminders for our dental booking app.",
};
const ANSWERS = [
  "Patients forget appointments booked weeks ahead; front-desk staff phone each patient the day before, which takes 2 hours a day.",
  "1. Cut no-shows from 18% to 9% by June 2027. 2. Save receptionists 2 hours a day. Guardrail: SMS opt-out rate stays under 2%.",
  "Primary: front-desk receptionists. Secondary: patients, often parents booking for children, and clinic owners.",
  "1. Send an SMS reminder 48 hours before each appointment.\n2. Let the patient confirm or cancel by replying C or X.\n3. Show receptionists the confirmation status beside each booking.\n4. Stop reminders for patients who opted out.",
  "In scope: SMS reminders and replies. Out of scope: email and voice calls, which come later.",
  "Risk: SMS costs exceed the 400 EUR monthly budget. Mitigation: cap the volume and alert the manager at 80%.",
  "Pilot in 2 clinics in March 2027, GA 10 weeks after the pilot.",
];
const qaPairs = interviewOutline(ctx)
  .filter((p) => !p.derived)
  .map((p, i) => ({ question: p.question, answer: ANSWERS[i] ?? "" }));
const prd = generatePrd({ style: "comprehensive", qaPairs }, ctx);

describe("personas as the user named them", () => {
  it("puts the primary persona first and keeps an aside as a note, not a persona", () => {
    const ps = namedPersonas(["Primary: front-desk receptionists.", "Secondary: patients, often parents booking for children, and clinic owners."]);
    expect(ps.map((p) => p.name)).toEqual(["front-desk receptionists", "patients", "clinic owners"]);
    expect(ps[0]!.primary).toBe(true);
    expect(ps[1]!.note).toBe("often parents booking for children");
  });

  it("keeps a number's thousands separator and a bracket's commas inside the persona (issue 34: \"2 (primary), 600\")", () => {
    expect(namedPersonas(["Primary: front-desk staff (about 2,600 bookings a year), clinic owners."]).map((p) => p.name)).toEqual([
      "front-desk staff (about 2,600 bookings a year)",
      "clinic owners",
    ]);
    expect(namedPersonas(["Users: nurses; admins (IT, security) and receptionists handling 1,200 calls."]).map((p) => p.name)).toEqual([
      "nurses",
      "admins (IT, security)",
      "receptionists handling 1,200 calls",
    ]);
  });

  it("writes the Overview's For: line with the primary persona, and a guardrail the user gave is not asked for again", () => {
    expect(prd).toContain("**For:** front-desk receptionists (primary), patients (often parents booking for children), clinic owners");
    expect(prd).toContain("- Guardrail: SMS opt-out rate stays under 2%.");
    expect(prd).not.toContain("which guardrail metric");
  });
});

describe("stories from the requirements' own words", () => {
  const stories = userStories({ content: prd, source: "prd" }, ctx);
  const blocks = stories.split(/^### /m).slice(1);

  it("gives each requirement the persona it names, in grammatical English", () => {
    expect(blocks).toHaveLength(4);
    expect(stories).toContain("As a patient, I want to confirm or cancel by replying C or X");
    expect(stories).toContain("As a front-desk receptionist, I want to see the confirmation status beside each booking");
    expect(stories).toContain("As a front-desk receptionist, I want the product to send an SMS reminder 48 hours before each appointment");
    expect(stories).not.toMatch(/I want (?:let|show|to show receptionists)\b/);
  });

  it("writes acceptance criteria from each requirement, never the same criterion twice", () => {
    expect(stories).toContain("Given an appointment 48 hours away, Then an SMS reminder is sent.");
    expect(stories).toContain("Given an appointment more than 48 hours away, Then no SMS reminder is sent yet.");
    expect(stories).toContain("When I confirm by replying C or X");
    expect(stories).toContain("When I cancel by replying C or X");
    expect(stories).toContain("Reminders for all other patients continue as before.");
    const criteria = blocks.flatMap((b) => b.split("\n").filter((l) => l.startsWith("- ")));
    expect(new Set(criteria).size).toBe(criteria.length);
  });
});

describe("the technical spec's data model", () => {
  it("proposes only fields the requirements mention, each with its source", () => {
    const spec = technicalSpecs({ prdContent: prd, focusAreas: [] }, ctx);
    const model = spec.slice(spec.indexOf("## Data Model"), spec.indexOf("## API Endpoints"));
    expect(model).toContain("| Booking | confirmationStatus | “Show receptionists the confirmation status beside each booking” |");
    expect(model).toContain("| Patient | optedOut | “Stop reminders for patients who opted out” |");
    expect(model).not.toMatch(/createdAt|updatedAt/);
  });
});

describe("placement by what a sentence says", () => {
  it("the Overview's Problem line is a sentence about the problem, never a goal answered in its place", () => {
    const pairs = interviewOutline(ctx)
      .filter((p) => !p.derived)
      .map((p, i) => ({
        question: p.question,
        answer: i === 0 ? "The weather was nice yesterday." : i === 1 ? "Cut no-shows from 18% to 9% by June 2027." : "",
      }));
    const draft = generatePrd({ style: "comprehensive", qaPairs: pairs }, { memories: [], projectName: "Dental reminders" });
    expect(draft).not.toMatch(/\*\*Problem:\*\* (?:Cut no-shows|The weather)/);
    expect(draft).toContain("**Success looks like:** Cut no-shows from 18% to 9% by June 2027.");
  });
});

describe("other styles", () => {
  it("a technical PRD's data model names only fields the requirements name; agile epics keep the user's casing", () => {
    const technical = generatePrd({ style: "technical", qaPairs }, ctx);
    const model = technical.slice(technical.indexOf("## Data Model"), technical.indexOf("## API Design"));
    expect(model).toContain("Booking.confirmationStatus (“Show receptionists the confirmation status beside each booking”)");
    expect(model).not.toMatch(/sms reminder,|createdAt/);
    const agile = generatePrd({ style: "agile", qaPairs }, ctx);
    expect(agile).toContain("### Epic 1: SMS reminders");
    expect(agile).not.toMatch(/Generals|Sms /);
  });
});

describe("the draft is scored for what it is", () => {
  it("a draft with three empty sections is good, not excellent, and the coach does not call its completeness a strength", async () => {
    const { score } = await import("~/ai/builtin/score");
    const { coach } = await import("~/ai/builtin/coach");
    const s = score({ prdContent: prd }, ctx);
    expect(s.overallScore).toBeGreaterThanOrEqual(60);
    expect(s.overallScore).toBeLessThan(80);
    expect(s.breakdown.completeness).toBeLessThan(80);
    const review = coach({ prdContent: prd }, ctx);
    expect(review.strengths.join("\n")).not.toMatch(/^Completeness/m);
    expect(review.improvements.map((i) => i.suggestion).join("\n")).toContain("Fill in “Non-Functional Requirements”");
  });
});

describe("roadmap and launch copy keep to the stated timeline and audience", () => {
  it("fits the roadmap to the weeks the PRD states, and says so", () => {
    const r = roadmap({ prdContent: prd, teamSize: "small", methodology: "agile" }, ctx);
    expect(r.totalWeeks).toBe(10);
    expect(r.phases.reduce((n, p) => n + p.durationWeeks, 0)).toBe(10);
    for (const [i, p] of r.phases.entries()) {
      expect(p.startWeek).toBe(1 + r.phases.slice(0, i).reduce((n, q) => n + q.durationWeeks, 0));
      for (const m of p.milestones) expect(m.week).toBeGreaterThanOrEqual(p.startWeek), expect(m.week).toBeLessThan(p.startWeek + p.durationWeeks);
    }
    expect(r.summary).toContain("Fitted to the PRD's timeline: “Pilot in 2 clinics in March 2027, GA 10 weeks after the pilot”.");
  });

  it("names the audience the user named and the release the PRD states", () => {
    const post = launchContent({ content: prd, contentType: "blog_post" }, ctx);
    expect(post).toContain("Dental reminders is for front-desk receptionists, patients and clinic owners.");
    expect(post).toContain("When: Pilot in 2 clinics in March 2027, GA 10 weeks after the pilot.");
    expect(post).not.toMatch(/Problem: |often parents,/);
    const demo = launchContent({ content: prd, contentType: "demo_script" }, ctx);
    expect(demo).toContain("“As a patient, I can confirm or cancel by replying C or X.”");
    expect(demo).toContain("“Dental reminders can send an SMS reminder 48 hours before each appointment.”");
    expect(demo).not.toMatch(/I can (?:let|show)\b/);
    const release = launchContent({ content: prd, contentType: "press_release" }, ctx);
    expect(release).not.toContain("Availability: Pilot");
    expect(release).toContain("Pilot in 2 clinics in March 2027, GA 10 weeks after the pilot.");
  });

  it("draws the flow from the requirements, starting with the named persona", () => {
    const flow = wireframe({ content: prd, diagramType: "user_flow" }, ctx);
    expect(flow).toContain('"front-desk receptionists: start in Dental reminders"');
    expect(flow).toContain('"Send an SMS reminder 48 hours before each appointment."');
    expect(flow).not.toMatch(/\["\d+\.?"\]|Primary:/);
  });
});

describe("the builder asks only what is missing", () => {
  const described: BuiltinContext = {
    memories: [],
    projectName: "Dental reminders",
    projectDescription: "Appointment reminders for our dental booking app: patients miss 18% of appointments and each no-show costs the clinic 120 EUR.",
  };

  it("does not ask for the problem the project description already states, and writes it into the PRD", async () => {
    const { firstQuestion } = await import("~/ai/builtin/interview");
    const q = firstQuestion(described);
    expect(q).not.toMatch(/problem/i);
    expect(q).toBe(interviewOutline(described).find((p) => p.title === "Target Users")!.question);
    // Without a description the problem comes first.
    expect(firstQuestion({ ...described, projectDescription: "" })).toMatch(/problem/i);
    const draft = generatePrd({ style: "lean", qaPairs: [] }, described);
    expect(draft.slice(draft.indexOf("## Problem"), draft.indexOf("## Target Users"))).toContain("patients miss 18% of appointments");
  });

  it("follows up on an off-topic answer, leaves it out of the PRD, and moves on after a real one", async () => {
    const { builderTurn } = await import("~/ai/builtin/interview");
    const goalsQ = interviewOutline(described).find((p) => p.title === "Goals and Success Metrics")!.question;
    const off = builderTurn({ qaPairs: [], question: goalsQ, answer: "The weather was nice yesterday." }, described);
    expect(off.response).toContain("I left “The weather was nice yesterday” out of the PRD");
    expect(off.response).toContain("It doesn't answer the question about **Goals and Success Metrics** yet.");
    expect(off.nextQuestion).toMatch(/^Could you be more specific about “Goals and Success Metrics”\?/);
    const real = builderTurn(
      {
        qaPairs: [{ question: goalsQ, answer: "The weather was nice yesterday." }],
        question: off.nextQuestion!,
        answer: "Cut no-shows from 18% to 9% by June 2027.",
      },
      described,
    );
    expect(real.covered).toContain("Goals and Success Metrics");
    expect(real.nextQuestion).not.toMatch(/Goals and Success Metrics/);
  });
});

describe("an imported document is read before anything is asked", () => {
  const imported = [
    "# Bin finder",
    "",
    "## Problem",
    "Warehouse pickers lose 20 minutes a shift looking for bins.",
    "",
    "## Target Users",
    "- Primary: warehouse pickers",
    "- Secondary: shift leads",
    "",
    "## Risks",
    "TBD",
    "",
    "---",
    "",
    "_Imported from “bins.docx”._",
  ].join("\n");
  const withDoc: BuiltinContext = { memories: [], projectName: "Bin finder", document: imported };

  it("asks first about what the document lacks, and keeps its words in the PRD", async () => {
    const { firstQuestion } = await import("~/ai/builtin/interview");
    const outline = interviewOutline(withDoc);
    const q = firstQuestion(withDoc);
    expect(q).toBe(outline.find((p) => p.title === "Goals and Success Metrics")!.question);
    const draft = generatePrd({ style: "lean", qaPairs: [] }, withDoc);
    expect(draft).toContain("Warehouse pickers lose 20 minutes a shift looking for bins.");
    expect(draft).toContain("Primary: warehouse pickers");
    expect(draft).not.toMatch(/Imported from|^- TBD/m);
  });

  it("does not read back a draft it wrote itself", () => {
    const own = generatePrd({ style: "lean", qaPairs: [] }, { memories: [], projectName: "X" });
    const again = generatePrd({ style: "lean", qaPairs: [] }, { memories: [], projectName: "X", document: own });
    expect(again).toBe(own);
  });
});

describe("the drafter's own output passes its own check", () => {
  it("writes a goal with no stated baseline or date as a dash in the table, asked about once, never an 'Unknown' cell the check flags", () => {
    const answers = ["Patients forget appointments.", "Cut no-shows to 9%.", ...ANSWERS.slice(2)];
    const pairs = interviewOutline(ctx)
      .filter((p) => !p.derived)
      .map((p, i) => ({ question: p.question, answer: answers[i] ?? "" }));
    const doc = generatePrd({ style: "comprehensive", qaPairs: pairs }, ctx);
    expect(doc).toContain("| no-shows | — | 9% | — |");
    expect(doc).not.toMatch(/\bUnknown\b/);
    expect(doc).toContain("what is today's baseline for no-shows?");
    const flagged = checkPrd(doc).issues.filter((i) => i.rule.includes("placeholder"));
    expect(flagged.map((i) => i.excerpt)).toEqual([]);
  });
});
