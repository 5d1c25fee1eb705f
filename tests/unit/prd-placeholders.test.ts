import { describe, expect, it } from "vitest";
import { analyze } from "~/ai/builtin/analysis";
import { coach } from "~/ai/builtin/coach";
import type { BuiltinContext } from "~/ai/builtin/contract";
import { score } from "~/ai/builtin/score";
import { checkPrd } from "~/prd-rules/check";
import { placeholderPhrase } from "~/prd-rules/rules";
import { draftFromDocument } from "~/domain/uploads/from-document.server";

/**
 * Placeholders are defects: "to be agreed", "priority to confirm",
 * an open question written into Requirements, a table without rows. The
 * check reports them, the score counts them, and the coach never calls a
 * placeholder a mitigation.
 */

const ctx: BuiltinContext = { memories: [] };

const DENTAL = (mitigations: [string, string, string]) => `# Appointment reminders

## Problem Statement
Patients of the Smile Dental clinics miss 18% of appointments; each empty chair costs the clinic 120 EUR.

## Goals & Success Metrics
- Cut no-shows from 18% to 9% by 30 June 2027.
- Keep the SMS opt-out rate under 2% per month.

## Target Users
- Front-desk receptionists, who book and rebook 60 patients a day.
- Patients, often parents booking for their children.

## Requirements
1. Send an SMS reminder 48 hours and 2 hours before each appointment.
2. Let the patient confirm or cancel by replying C or X.
3. Show receptionists the confirmation status beside each booking.

## Risks & Mitigations
- SMS costs exceed the 400 EUR monthly budget. Mitigation: ${mitigations[0]}
- Patients reply with free text the system cannot read. Mitigation: ${mitigations[1]}
- Reminders reach the wrong number after a patient moves. Mitigation: ${mitigations[2]}

## Open Questions
- Should reminders go to both parents of a child patient?
`;

describe("placeholders in the check, the score and the coach", () => {
  it("finds the phrase only where it stands in for a value", () => {
    expect(placeholderPhrase("- Mitigation: to be agreed")).toBe("to be agreed");
    expect(placeholderPhrase("| Double booking | to be agreed |")).toBe("to be agreed");
    expect(placeholderPhrase("- Send a reminder 24 h before (priority to confirm)")).toBe("priority to confirm");
    expect(placeholderPhrase("Owner: TBC")).toBe("TBC");
    expect(placeholderPhrase("- Patients need to confirm the slot by SMS.")).toBeNull();
    expect(placeholderPhrase("The price is to be agreed with finance by 1 May.")).toBeNull();
    expect(placeholderPhrase("Mitigation: cap the monthly SMS volume and alert at 80%.")).toBeNull();
  });

  it("reports placeholder mitigations, open questions outside Open Questions and empty tables", () => {
    const text = `${DENTAL(["to be agreed.", "to be agreed.", "to be agreed."])}
## Timeline
| Milestone | Date |
|---|---|

## Scope
- In scope: SMS reminders for check-ups.
- Open question: do we remind for hygiene visits too?

## Notes
- Open question: which SMS provider?
`;
    const check = checkPrd(text);
    const found = check.issues.filter((i) => i.rule === "placeholder");
    expect(found.map((i) => i.section)).toEqual(["Risks & Mitigations", "Risks & Mitigations", "Risks & Mitigations", "Timeline", "Scope"]);
    // A section holding nothing but a question is reported once, as empty.
    expect(check.issues.filter((i) => i.section === "Notes").map((i) => i.rule)).toEqual(["empty_section"]);
    expect(found.every((i) => i.severity === "medium")).toBe(true);
    expect(check.stats.placeholders).toBe(5);
    // The real open question, in its own section, is not a defect.
    expect(found.some((i) => /both parents/.test(i.excerpt ?? ""))).toBe(false);
  });

  it("scores a draft whose mitigations are placeholders well below the same draft with real ones, and the coach says why", () => {
    const written = DENTAL([
      "cap the monthly volume and alert the clinic manager at 80% of the budget.",
      "forward unreadable replies to the front desk within 5 minutes.",
      "ask patients to confirm their number at every visit.",
    ]);
    const placeholders = DENTAL(["to be agreed.", "to be agreed.", "to be agreed."]);
    const good = analyze(written, ctx);
    const bad = analyze(placeholders, ctx);
    expect(good.risksWithMitigation).toBe(3);
    expect(bad.risksWithMitigation).toBe(0);
    expect(score({ prdContent: placeholders }, ctx).overallScore).toBeLessThan(score({ prdContent: written }, ctx).overallScore - 8);
    expect(bad.dimensions.riskAssessment.score).toBeLessThan(good.dimensions.riskAssessment.score - 25);

    const review = coach({ prdContent: placeholders }, ctx);
    const said = [...review.strengths, review.executiveSummary].join("\n");
    expect(said).not.toMatch(/has a mitigation/);
    const suggestions = review.improvements.map((i) => i.suggestion).join("\n");
    expect(suggestions).toMatch(/3 lines still stand in for content/);
    expect(suggestions).toMatch(/3 of 3 risks .* have no mitigation/);
    expect(coach({ prdContent: written }, ctx).strengths.join("\n")).toMatch(/Every listed risk \(3\) has a mitigation/);
  });

  it("does not take a document import's provenance note for a goal", () => {
    const text = `${draftFromDocument("Notes", "## Goals\n\n- Cut no-shows from 18% to 9% by June 2027.", "notes.md")}`;
    expect(text).toContain("_Imported from “notes.md”._");
    expect(checkPrd(text).issues.filter((i) => i.rule === "goal_without_number")).toEqual([]);
    expect(analyze(text, ctx).goals.map((g) => g.text)).toEqual(["Cut no-shows from 18% to 9% by June 2027."]);
  });
});
