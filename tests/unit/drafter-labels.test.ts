import { describe, expect, it } from "vitest";
import { interviewOutline, planSections } from "~/ai/builtin/answers";
import type { BuiltinContext, QaPair } from "~/ai/builtin/contract";
import { generatePrd, STYLE_OUTLINES } from "~/ai/builtin/prd";
import { userStories } from "~/ai/builtin/specs";
import { sectionOf } from "../support/interview";

/**
 * Placement by question and by the user's own labels (issue 34): a labelled
 * line goes to the section its label names, whatever question it answered,
 * and nothing the user put out of scope is written as scope, a requirement
 * or a story. The interviews are a bike-share operator's and a payroll
 * team's, written for these tests only.
 */

const ctx: BuiltinContext = { memories: [], projectName: "Dock finder", projectDescription: "Help riders find a free dock at the end of a bike-share trip." };

/** Answers keyed by the section they answer; each pair asks that section's own question. */
function pairsFor(context: BuiltinContext, bySection: Record<string, string>, outline?: string[]): QaPair[] {
  const plans = outline ? planSections(outline) : interviewOutline(context);
  return Object.entries(bySection).map(([title, answer]) => {
    const plan = plans.find((p) => p.title === title);
    if (!plan) throw new Error(`no section ${title}`);
    return { question: plan.question, answer };
  });
}

const section = sectionOf;

describe("labels route lines to their sections", () => {
  const pairs = pairsFor(ctx, {
    Problem:
      "Riders reach a full station and circle the block looking for a dock; 1 in 7 trips ends this way. Risk: station sensors report late. Mitigation: show the report's age next to the count.",
    Requirements:
      "- Must: show free docks at the three nearest stations when a trip starts\n- Should: reserve a dock for 5 minutes\n- Could: suggest a station with a ride credit\n\nOut of scope: paying for parking elsewhere.",
    "Scope and Non-Goals": "Not doing:\n- Car parking\n- Scooters\n- A new rider app",
    Risks: "The biggest risk is that reservations block docks nobody uses. We will cap reservations at 2,600 a day.",
    "Release Plan": "Release plan: pilot in Harbour district in May 2027, then the whole city in September 2027.\nOpen: who pays for the sensor upgrade?",
  });
  // The interview asked the default outline's questions; the comprehensive PRD has sections of its own names.
  const defaultPrd = generatePrd({ style: "comprehensive", qaPairs: pairs }, ctx);
  const lean = generatePrd({ style: "lean", qaPairs: pairs }, ctx);

  it("writes what the user listed as out of scope under Non-goals, never under In scope, a requirement or a story", () => {
    const scope = section(defaultPrd, "Scope and Non-Goals");
    const nonGoals = scope.split("**Non-goals**")[1] ?? "";
    for (const item of ["Car parking", "Scooters", "A new rider app", "Paying for parking elsewhere."]) expect(nonGoals).toContain(item);
    const inScope = scope.split("**Non-goals**")[0]!;
    expect(inScope).not.toMatch(/Car parking|Scooters|rider app|parking elsewhere/);
    expect(section(defaultPrd, "Functional Requirements")).not.toMatch(/parking elsewhere/);
    expect(section(defaultPrd, "Overview")).not.toMatch(/rider app|Scooters/);
    const stories = userStories({ content: defaultPrd, source: "prd" }, ctx);
    expect(stories).not.toMatch(/Scooters|Car parking|parking elsewhere/);
  });

  it("gives each requirement the priority its label names, once, with the label read off the text", () => {
    const reqs = section(defaultPrd, "Functional Requirements");
    expect(reqs).toMatch(/\*\*FR-\d+\*\* \(Must\): Show free docks at the three nearest stations/);
    expect(reqs).toMatch(/\(Should\): Reserve a dock for 5 minutes/);
    expect(reqs).toMatch(/\(Could\): Suggest a station with a ride credit/);
    expect(reqs).not.toMatch(/Must\): Must|Should\): Should|Could\): Could/);
    // Every requirement had a priority: none is asked about.
    expect(section(defaultPrd, "Open Questions")).not.toMatch(/Must, Should or Could/);
  });

  it("moves a labelled risk out of the problem answer into Risks, with its mitigation", () => {
    expect(section(defaultPrd, "Problem Statement")).not.toMatch(/sensors report late/);
    expect(section(defaultPrd, "Problem Statement")).toContain("1 in 7 trips");
    expect(section(defaultPrd, "Risks and Mitigations")).toContain("Station sensors report late. Mitigation: show the report's age next to the count.");
    expect(section(defaultPrd, "Risks and Mitigations")).toContain("The biggest risk is that reservations block docks nobody uses.");
  });

  it("keeps numbers and names whole, and sends an “Open:” line to Open Questions", () => {
    expect(defaultPrd).toContain("2,600 a day");
    expect(section(defaultPrd, "Release Plan and Milestones")).toContain("Pilot in Harbour district in May 2027");
    expect(section(defaultPrd, "Release Plan and Milestones")).not.toContain("sensor upgrade");
    expect(section(defaultPrd, "Open Questions")).toContain("Who pays for the sensor upgrade?");
  });

  it("does the same in the lean one-pager: Non-Goals gets the out-of-scope list", () => {
    const nonGoals = section(lean, "Non-Goals");
    for (const item of ["Car parking", "Scooters", "Paying for parking elsewhere."]) expect(nonGoals).toContain(item);
    expect(section(lean, "Proposed Solution")).not.toMatch(/Scooters|Car parking/);
  });
});

describe("placement by question", () => {
  it("keeps an unlabelled answer in the section its question asked for", () => {
    const payroll: BuiltinContext = { memories: [], projectName: "Payslip explainer" };
    const pairs = pairsFor(payroll, {
      Problem: "Employees open a ticket every month because they cannot read their payslip; payroll answers about 340 tickets a month.",
      "Target Users": "Hourly warehouse staff, most of them on phones, and the two payroll specialists who answer the tickets.",
      Requirements: "Explain each payslip line in plain words. Link each deduction to the policy behind it.",
    });
    const prd = generatePrd({ style: "comprehensive", qaPairs: pairs }, payroll);
    expect(section(prd, "Problem Statement")).toContain("340 tickets a month");
    expect(section(prd, "Functional Requirements")).toContain("Explain each payslip line in plain words.");
    expect(section(prd, "Functional Requirements")).not.toContain("340 tickets");
    expect(section(prd, "Target Users and Personas")).toContain("Hourly warehouse staff");
  });

  it("never writes an out-of-scope line as a requirement in a style without a scope section", () => {
    const pairs: QaPair[] = [
      {
        question: planSections(STYLE_OUTLINES.technical).find((p) => p.title === "Functional Requirements")!.question,
        answer: "- Must: return free docks per station as JSON\n- Out of scope: historical occupancy",
      },
    ];
    const prd = generatePrd({ style: "technical", qaPairs: pairs }, ctx);
    const reqs = section(prd, "Functional Requirements");
    expect(reqs).toMatch(/\(Must\): Return free docks per station as JSON/);
    expect(reqs).not.toMatch(/FR-\d+\*\*[^\n]*historical occupancy/);
    expect(prd).toMatch(/Out of scope:_? Historical occupancy/);
  });
});
