import { describe, expect, it } from "vitest";
import type { BuiltinContext } from "~/ai/builtin/contract";
import { generatePrd } from "~/ai/builtin/prd";
import { contradictions } from "~/ai/builtin/contradictions";
import { retractionOf } from "~/ai/builtin/retractions";
import { userStories } from "~/ai/builtin/specs";
import { runInterview, sectionOf } from "../support/interview";

/**
 * What the user takes back stays out (issue 34). A dental-waitlist
 * interview where the PM changes their mind twice, written for this test.
 */

const section = sectionOf;
const interview = runInterview;

describe("reading a retraction", () => {
  it("knows what takes back the statement before, and what names its subject", () => {
    expect(retractionOf("Scratch that.")).toEqual({ kind: "previous" });
    expect(retractionOf("Scratch that last one.")).toEqual({ kind: "previous" });
    expect(retractionOf("Never mind, reminders go out by email.")).toEqual({ kind: "previous", rest: "Reminders go out by email." });
    expect(retractionOf("Let's not do the waitlist.")).toEqual({ kind: "subject", subject: "waitlist" });
    expect(retractionOf("We won't need the CSV export after all.")).toEqual({ kind: "subject", subject: "CSV export" });
    expect(retractionOf("Actually, use email instead of SMS.")).toEqual({ kind: "subject", subject: "SMS", rest: "Use email." });
  });

  it("is not fooled by requirements that only sound like one", () => {
    for (const s of [
      "Cut no-shows from 18% to 9%.",
      "We will not build a mobile app.",
      "Drop the export into the shared folder every night.",
      "Forget-me-not reminders go out weekly.",
    ])
      expect(retractionOf(s), s).toBeUndefined();
  });
});

describe("an interview where the PM changes their mind", () => {
  const ctx: BuiltinContext = { memories: [], projectName: "Clinic waitlist", projectDescription: "Fill cancelled dental appointments from a waitlist." };
  const { pairs, turns } = interview(ctx, [
    "When a patient cancels, the slot stays empty; about 30 slots a week across 4 clinics.",
    "Fill 20 of the 30 weekly cancelled slots by March 2027.",
    "Receptionists at the front desk, and patients on the waitlist.",
    "- Text the first patient on the waitlist when a slot opens\n- Let patients join the waitlist online\n- A loyalty points program for patients who accept",
    "Scratch that last one. Let's not do the online join either.",
  ]);
  const prd = generatePrd({ style: "comprehensive", qaPairs: pairs }, ctx);

  it("keeps no retracted feature in the requirements, the stories or the overview", () => {
    expect(section(prd, "Functional Requirements")).toContain("Text the first patient on the waitlist when a slot opens");
    expect(prd).not.toMatch(/loyalty points/i);
    expect(section(prd, "Functional Requirements")).not.toMatch(/join the waitlist online/);
    expect(section(prd, "Overview")).not.toMatch(/loyalty|online/i);
    expect(userStories({ content: prd, source: "prd" }, ctx)).not.toMatch(/loyalty|join the waitlist online/i);
  });

  it("records a dropped feature as a decision under Non-goals, and says what it took out", () => {
    expect(section(prd, "Scope and Non-Goals")).toMatch(/Online join \(decided against in the interview\)/);
    const taking = turns.at(-1)!;
    expect(taking.response).toContain("Taken out of the PRD: “A loyalty points program for patients who accept”, “Let patients join the waitlist online”.");
  });

  it("asks the question it was answering again, since a retraction answers nothing", () => {
    expect(turns.at(-1)!.nextQuestion).toBe(pairs.at(-1)!.question);
  });
});

describe("contradictions", () => {
  it("finds the same quantity given different values, and never against unless, but not a second reminder or a range", () => {
    const found = contradictions([
      "Send an SMS reminder 48 hours before each appointment.",
      "Patients should get the reminder 24 hours before the appointment.",
      "Send a second reminder 2 hours before.",
      "Cut no-shows from 18% to 9% by June 2027.",
      "We never share patient data with third parties.",
      "Share patient data with the insurer unless the patient opts out.",
      "The page loads in 2 seconds.",
      "The nightly export takes 30 seconds for big clinics.",
    ]);
    expect(found.map((c) => c.quotes)).toEqual([
      ["Send an SMS reminder 48 hours before each appointment.", "Patients should get the reminder 24 hours before the appointment."],
      ["We never share patient data with third parties.", "Share patient data with the insurer unless the patient opts out."],
    ]);
  });

  const ctx: BuiltinContext = { memories: [], projectName: "Dental reminders", projectDescription: "Appointment reminders for our dental booking app." };
  const answers = [
    "Patients forget appointments; receptionists phone each one the day before.",
    "Cut no-shows from 18% to 9% by June 2027.",
    "Receptionists, and patients who book online.",
    "- Send an SMS reminder 48 hours before each appointment\n- Show the confirmation status beside each booking",
    "Patients should get the reminder 24 hours before the appointment.",
  ];

  it("asks about a contradiction as soon as it appears, quoting both sides, and lists it until it is settled", () => {
    const { pairs, turns } = interview(ctx, answers);
    expect(turns.at(-1)!.nextQuestion).toBe(
      "You gave different values for the same thing: “Send an SMS reminder 48 hours before each appointment” and “Patients should get the reminder 24 hours before the appointment”. Which one holds?",
    );
    const unsettled = generatePrd({ style: "comprehensive", qaPairs: pairs }, ctx);
    expect(section(unsettled, "Open Questions")).toMatch(/1\. \*\*Contradiction:\*\* You gave different values/);
  });

  it("keeps the side the answer names, drops the other, and logs the answer under Clarifications", () => {
    const { pairs, turns } = interview(ctx, [...answers, "48 hours is right."]);
    expect(turns.at(-1)!.response).toMatch(/^Thanks, that settles it: “48 hours is right”/);
    const prd = generatePrd({ style: "comprehensive", qaPairs: pairs }, ctx);
    expect(section(prd, "Functional Requirements")).toContain("48 hours before each appointment");
    expect(prd).not.toMatch(/24 hours before the appointment\.$/m);
    expect(section(prd, "Open Questions")).not.toContain("**Contradiction:**");
    expect(section(prd, "Open Questions")).toMatch(/\*\*Clarifications\*\*\n\n- You gave different values[^\n]+ — 48 hours is right\./);
  });
});
