import { describe, expect, it } from "vitest";
import { isTalk, withoutOpeningTalk } from "~/ai/builtin/chatter";
import type { BuiltinContext } from "~/ai/builtin/contract";
import { builderTurn } from "~/ai/builtin/interview";
import { isMeasurable } from "~/ai/builtin/metrics";
import { generatePrd } from "~/ai/builtin/prd";
import { runInterview } from "../support/interview";

/**
 * Conversation is not content (issue 34): talk is not written, an opening
 * "OK so" goes only where a sentence remains, meaning-bearing qualifiers
 * stay, and an aside about nothing the project names is left out with the
 * builder saying so. A rambling nurse-rota interview written for this test.
 */

describe("talk and qualifiers", () => {
  it("drops an opening discourse marker only where a sentence remains", () => {
    expect(withoutOpeningTalk("OK so nurses text each other at 2am to find cover.")).toBe("Nurses text each other at 2am to find cover.");
    expect(withoutOpeningTalk("To be honest, the ward manager approves every swap by phone.")).toBe("The ward manager approves every swap by phone.");
    expect(withoutOpeningTalk("Well, mostly.")).toBe("Well, mostly.");
    // "So that", "right now" and "so many" are content, not markers.
    expect(withoutOpeningTalk("So that managers see every swap, we log it.")).toBe("So that managers see every swap, we log it.");
    expect(withoutOpeningTalk("Right now the manager keeps a paper rota.")).toBe("Right now the manager keeps a paper rota.");
  });

  it("keeps qualifiers that carry meaning", () => {
    for (const s of ["The export is basically done.", "I think the pilot ward is not quite ready.", "We don't really need SMS.", "Roughly 120 nurses use it."])
      expect(withoutOpeningTalk(s)).toBe(s);
  });

  it("knows a sentence that is only talk from a short statement", () => {
    for (const s of ["Good question.", "Hmm.", "OK, that's about it.", "I guess that's all.", "Does that make sense?", "Thanks!"])
      expect(isTalk(s), s).toBe(true);
    for (const s of ["SMS only.", "Managers approve swaps.", "It must work offline.", "Night shifts first."]) expect(isTalk(s), s).toBe(false);
  });

  it("calls a goal measurable only with a number that has a baseline, a target, a bound or a date", () => {
    expect(isMeasurable("Fewer unfilled shifts, from 40 a month to 10 by next summer.")).toBe(true);
    expect(isMeasurable("Keep swap approval under 2 hours.")).toBe(true);
    expect(isMeasurable("We have 3 wards.")).toBe(false);
    expect(isMeasurable("Make swapping easier for the 2 night teams.")).toBe(false);
  });
});

describe("a rambling interview", () => {
  const ctx: BuiltinContext = {
    memories: [],
    projectName: "Shift swap",
    projectDescription: "Let nurses swap shifts without calling the ward manager.",
  };
  const answers = [
    "OK so nurses text each other at 2am to find cover and the ward manager approves by phone. My cat knocked over my coffee this morning, sorry.",
    "Good question. Hmm. We want fewer unfilled shifts, roughly from 40 a month to 10 by next summer.",
  ];
  const { pairs, turns, next: question } = runInterview(ctx, answers);
  const prd = generatePrd({ style: "comprehensive", qaPairs: pairs }, ctx);

  it("writes neither the talk nor the aside into the PRD, and keeps the user's words otherwise", () => {
    expect(prd).not.toMatch(/Good question|Hmm|OK so|cat knocked|coffee/);
    expect(prd).toContain("Nurses text each other at 2am to find cover and the ward manager approves by phone.");
    expect(prd).toContain("We want fewer unfilled shifts, roughly from 40 a month to 10 by next summer.");
  });

  it("says what it left out, and acknowledges the measurable goal in the user's words", () => {
    expect(turns[0]!.response).toMatch(
      /I left “My cat knocked over my coffee this morning, sorry” out of the PRD: it doesn't seem to be about \*\*Shift swap\*\*/,
    );
    expect(turns[1]!.response).toContain("measurable target: “We want fewer unfilled shifts");
    expect(turns[1]!.response).not.toContain("“Good question");
  });

  it("asks the same question again when a whole answer was an aside", () => {
    const aside = builderTurn({ qaPairs: pairs, question, answer: "My cousin's wedding is in Lisbon next month." }, ctx);
    expect(aside.response).toMatch(/out of the PRD/);
    expect(aside.nextQuestion).toMatch(/more specific/i);
    const again = generatePrd({ style: "comprehensive", qaPairs: [...pairs, { question, answer: "My cousin's wedding is in Lisbon next month." }] }, ctx);
    expect(again).not.toContain("Lisbon");
  });
});
