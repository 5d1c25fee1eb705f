import { describe, expect, it } from "vitest";
import { analyze } from "~/ai/builtin/analysis";
import { coach } from "~/ai/builtin/coach";
import type { BuiltinContext } from "~/ai/builtin/contract";
import { roadmap } from "~/ai/builtin/roadmap";
import { score } from "~/ai/builtin/score";
import { suggestions } from "~/ai/builtin/suggestions";
import { DIMENSIONS, reviewSchema, roadmapSchema, scoreSchema, suggestionsSchema, TEAM_SIZES } from "~/ai/schemas";
import { FULL_PRD, MESSY_PRD, THIN_PRD } from "../support/prd-fixtures";

const ctx: BuiltinContext = { memories: [] };
const INPUTS = {
  thin: THIN_PRD,
  messy: MESSY_PRD,
  full: FULL_PRD,
  empty: "",
  odd: '# "Q"; [x]\n\n## Goals\n- ???\n\n```\n## Risks\n```\n',
};

describe("coach and score", () => {
  it("pass their schemas for every input", () => {
    for (const content of Object.values(INPUTS)) {
      reviewSchema.parse(coach({ prdContent: content }, ctx));
      scoreSchema.parse(score({ prdContent: content }, ctx));
    }
  });

  it("score a thin PRD clearly lower than a full one, on every dimension", () => {
    const thin = coach({ prdContent: THIN_PRD }, ctx);
    const messy = coach({ prdContent: MESSY_PRD }, ctx);
    const full = coach({ prdContent: FULL_PRD }, ctx);
    expect(thin.overallScore).toBeLessThan(30);
    expect(full.overallScore).toBeGreaterThan(80);
    expect(thin.overallScore).toBeLessThan(messy.overallScore);
    expect(messy.overallScore).toBeLessThan(full.overallScore);
    for (const d of DIMENSIONS) {
      expect(thin.dimensions[d], d).toBeLessThan(full.dimensions[d]);
      expect(full.dimensions[d] - thin.dimensions[d], d).toBeGreaterThanOrEqual(40);
    }
    expect(thin.missingSections.length).toBeGreaterThan(0);
    expect(full.missingSections).toEqual([]);
  });

  it("gives an empty PRD zero and lists every expected section", () => {
    const review = coach({ prdContent: "" }, ctx);
    expect(review.overallScore).toBe(0);
    expect(review.missingSections).toHaveLength(7);
    expect(review.strengths).toEqual([]);
  });

  it("grounds the review in measured facts", () => {
    const messy = coach({ prdContent: MESSY_PRD }, ctx);
    expect(messy.executiveSummary).toContain("Checkout Revamp");
    expect(messy.executiveSummary).toContain("1 of 2 goals state a number");
    expect(messy.missingSections).toEqual(["Target Users", "Scope and Non-Goals", "Risks"]);
    const texts = messy.improvements.map((i) => i.suggestion).join("\n");
    expect(texts).toContain("“Target Users”");
    expect(texts).toContain("line 7");
    expect(texts).toContain("“Make checkout fast”");
    expect(texts).toContain("lines 11 and 12");
    expect(messy.improvements[0]!.priority).toBe("high");
    const priorities = messy.improvements.map((i) => ["high", "medium", "low"].indexOf(i.priority));
    expect(priorities).toEqual([...priorities].sort());
    expect(messy.recommendations.length).toBeGreaterThan(0);
    const full = coach({ prdContent: FULL_PRD }, ctx);
    expect(full.strengths.join("\n")).toContain("3 of 3 goals state a number");
    expect(full.strengths.join("\n")).toContain("Every listed risk (3) has a mitigation");
    expect(full.improvements).toHaveLength(1);
    expect(full.improvements[0]).toMatchObject({ priority: "low" });
    expect(full.improvements[0]!.suggestion).toContain("User focus");
  });

  it("lists the template's sections as missing when there is a template", () => {
    const template = {
      name: "Lean PRD",
      sections: ["Problem", "Hypothesis", "Experiments"],
      initialQuestion: "?",
    };
    const review = coach({ prdContent: MESSY_PRD }, { ...ctx, template });
    expect(review.missingSections).toEqual(["Hypothesis", "Experiments"]);
    expect(review.improvements[0]!.suggestion).toContain("“Lean PRD” template");
  });

  it("is deterministic", () => {
    for (const content of Object.values(INPUTS)) {
      expect(coach({ prdContent: content }, ctx)).toEqual(coach({ prdContent: content }, ctx));
      expect(score({ prdContent: content }, ctx)).toEqual(score({ prdContent: content }, ctx));
    }
  });

  it("scores with the same numbers as the coach, one evidence sentence per dimension", () => {
    for (const content of Object.values(INPUTS)) {
      const review = coach({ prdContent: content }, ctx);
      const result = score({ prdContent: content }, ctx);
      expect(result.overallScore).toBe(review.overallScore);
      expect(result.breakdown).toEqual(review.dimensions);
      for (const d of DIMENSIONS) expect(result.feedback[d]).toMatch(/\d/);
    }
    const full = score({ prdContent: FULL_PRD }, ctx);
    expect(full.feedback.metrics).toContain("3 of 3 goals state a number");
    expect(full.feedback.riskAssessment).toContain("3 risks listed, 3 with a mitigation");
    expect(full.feedback.userFocus).toContain("3 named user groups");
  });

  it("measures the signals it reports", () => {
    const a = analyze(FULL_PRD, ctx);
    expect(a.personas).toEqual(["Employee", "Manager", "Finance admin"]);
    expect(a.techAreas).toHaveLength(7);
    expect(a.requirements.map((r) => r.text)).not.toContain(expect.stringMatching(/^Given/));
    expect(a.requirements.some((r) => r.text.startsWith("Must: Managers approve"))).toBe(true);
    expect(a.risks).toHaveLength(3);
    expect(a.openQuestions).toHaveLength(2);
  });
});

describe("suggestions", () => {
  it("gives 3 to 5 valid suggestions for every input, deterministically", () => {
    for (const content of Object.values(INPUTS)) {
      const list = suggestions({ content }, ctx);
      suggestionsSchema.parse({ suggestions: list });
      expect(suggestions({ content }, ctx)).toEqual(list);
    }
  });

  it("starts with the most important measured issues", () => {
    const list = suggestions({ content: MESSY_PRD }, ctx);
    expect(list[0]).toMatchObject({
      section: "Target Users",
      type: "completeness",
      severity: "high",
    });
    expect(list.map((s) => s.type)).toContain("metrics");
    const metric = list.find((s) => s.type === "metrics")!;
    expect(metric.section).toBe("Goals");
    expect(metric.description).toContain("Make checkout fast");
  });

  it("still gives polish suggestions for a good PRD, citing its counts", () => {
    const list = suggestions({ content: FULL_PRD }, ctx);
    expect(list.length).toBeGreaterThanOrEqual(3);
    expect(list.every((s) => s.severity === "low")).toBe(true);
    expect(list.map((s) => s.description).join("\n")).toMatch(/3 of 3 goals/);
    expect(new Set(list.map((s) => `${s.type}|${s.section}`)).size).toBe(list.length);
  });
});

const METHODS = ["agile", "scrum", "kanban", "waterfall", "shape_up", "lean", "xp", "Shape Up", ""];

describe("roadmap", () => {
  it("passes its schema with contiguous phases for every team size and methodology", () => {
    for (const content of Object.values(INPUTS))
      for (const teamSize of TEAM_SIZES)
        for (const methodology of METHODS) {
          const r = roadmapSchema.parse(roadmap({ prdContent: content, teamSize, methodology }, ctx));
          expect(r.teamSize).toBe(teamSize);
          expect(r.phases[0]!.startWeek).toBe(1);
          r.phases.forEach((p, i) => {
            if (i > 0) expect(p.startWeek).toBe(r.phases[i - 1]!.startWeek + r.phases[i - 1]!.durationWeeks);
            for (const m of p.milestones) {
              expect(m.week).toBeGreaterThanOrEqual(p.startWeek);
              expect(m.week).toBeLessThan(p.startWeek + p.durationWeeks);
            }
            expect(p.tasks.length).toBeGreaterThan(0);
          });
          expect(r.totalWeeks).toBe(r.phases.reduce((n, p) => n + p.durationWeeks, 0));
        }
  });

  it("never takes longer with a larger team", () => {
    const big = `# Big\n\n## Requirements\n${Array.from(
      { length: 24 },
      (_, i) => `- Must: Requirement ${i + 1} with an API integration and data export for the admin dashboard`,
    ).join("\n")}\n`;
    for (const content of [...Object.values(INPUTS), big])
      for (const methodology of METHODS) {
        const weeks = TEAM_SIZES.map((teamSize) => roadmap({ prdContent: content, teamSize, methodology }, ctx).totalWeeks);
        expect(weeks[2]).toBeLessThanOrEqual(weeks[1]!);
        expect(weeks[1]).toBeLessThanOrEqual(weeks[0]!);
      }
    const small = roadmap({ prdContent: big, teamSize: "small", methodology: "agile" }, ctx).totalWeeks;
    const large = roadmap({ prdContent: big, teamSize: "large", methodology: "agile" }, ctx).totalWeeks;
    expect(large).toBeLessThan(small);
  });

  it("turns requirements into tasks grouped by MoSCoW", () => {
    const r = roadmap({ prdContent: FULL_PRD, teamSize: "medium", methodology: "agile" }, ctx);
    expect(r.title).toContain("Team Expense Reports");
    expect(r.summary).toContain("Team Expense Reports");
    expect(r.phases.map((p) => p.name)).toEqual(["Discovery & design", "Build must-haves (MVP)", "Build should-haves", "Beta & hardening", "Launch"]);
    const titles = (i: number) => r.phases[i]!.tasks.map((t) => t.title).join("\n");
    expect(titles(1)).toContain("Build: Managers approve or reject a report with a comment.");
    expect(titles(1)).not.toContain("Email reminders");
    expect(titles(2)).toContain("Build: Email reminders for reports pending approval");
    expect(titles(2)).toContain("Build (could-have): Integration with the corporate card provider API");
    expect(titles(0)).toContain("Which accounting systems besides CSV import");
    expect(r.phases.flatMap((p) => p.tasks.map((t) => t.role))).toEqual(expect.arrayContaining(["engineering", "design", "product", "QA"]));
    expect(r.phases.at(-1)!.milestones[0]!.successCriteria).toContain("Cut reimbursement time from 14 days to 5 days");
    expect(r.risks).toContain("Managers ignore reminders. Mitigation: escalate to finance after 7 days.");
    expect(r.risks.join("\n")).toContain("open question “Do we support multiple currencies");
  });

  it("takes must-haves in list order when the PRD states no priorities, and says so", () => {
    const prd = "# Notes app\n\n## Requirements\n- Create a note\n- Edit a note\n- Tag notes\n- Share a note by link\n- Export notes as PDF\n";
    const r = roadmap({ prdContent: prd, teamSize: "small", methodology: "agile" }, ctx);
    expect(r.phases[1]!.tasks.filter((t) => t.role === "engineering").map((t) => t.title)).toEqual([
      "Build: Create a note",
      "Build: Edit a note",
      "Build: Tag notes",
    ]);
    expect(r.risks.join("\n")).toContain("no priorities");
    expect(r.summary).toContain("5 requirements (3 must, 2 should, 0 could)");
  });

  it("estimates longer, more complex requirements higher", () => {
    const prd = "# X\n\n## Requirements\n- Must: Rename a list\n- Must: Sync payments from the bank API in real time with encryption and an audit export\n";
    const tasks = roadmap({ prdContent: prd, teamSize: "small", methodology: "agile" }, ctx).phases[1]!.tasks;
    expect(tasks[1]!.estimateDays).toBeGreaterThan(tasks[0]!.estimateDays);
  });

  it("shapes phases by methodology", () => {
    for (const teamSize of TEAM_SIZES) {
      const scrum = roadmap({ prdContent: FULL_PRD, teamSize, methodology: "scrum" }, ctx);
      for (const p of scrum.phases) {
        expect(p.durationWeeks % 2).toBe(0);
        expect(p.milestones[0]!.name).toMatch(/^Sprint \d+ review$/);
        expect(p.milestones[0]!.name).toBe(`Sprint ${(p.startWeek + p.durationWeeks - 1) / 2} review`);
      }
      const shapeUp = roadmap({ prdContent: FULL_PRD, teamSize, methodology: "shape_up" }, ctx);
      expect(shapeUp.methodology).toBe("shape_up");
      const cycles = shapeUp.phases.filter((p) => p.name.startsWith("Cycle"));
      const cooldowns = shapeUp.phases.filter((p) => p.name.startsWith("Cooldown"));
      expect(cycles.length).toBeGreaterThan(0);
      for (const c of cycles) expect(c.durationWeeks % 6).toBe(0);
      expect(cooldowns.map((c) => c.durationWeeks)).toEqual(cycles.map(() => 2));
      const waterfall = roadmap({ prdContent: FULL_PRD, teamSize, methodology: "waterfall" }, ctx);
      expect(waterfall.phases.map((p) => p.name)).toEqual([
        "Requirements & design",
        "Implementation: must-haves",
        "Implementation: should-haves",
        "Verification",
        "Deployment",
      ]);
      for (const p of waterfall.phases) expect(p.milestones[0]!.name).toMatch(/sign-off$/);
      const kanban = roadmap({ prdContent: FULL_PRD, teamSize, methodology: "kanban" }, ctx);
      expect(kanban.phases.every((p) => p.goal.includes("continuous flow"))).toBe(true);
      const other = roadmap({ prdContent: FULL_PRD, teamSize, methodology: "XP" }, ctx);
      expect(other.methodology).toBe("xp");
      expect(other.summary).toContain("XP (iterative)");
    }
  });

  it("is deterministic and handles an empty PRD", () => {
    const a = roadmap({ prdContent: FULL_PRD, teamSize: "large", methodology: "scrum" }, ctx);
    expect(roadmap({ prdContent: FULL_PRD, teamSize: "large", methodology: "scrum" }, ctx)).toEqual(a);
    const empty = roadmap({ prdContent: "", teamSize: "small", methodology: "" }, { ...ctx, projectName: "Atlas" });
    expect(empty.title).toContain("Atlas");
    expect(empty.methodology).toBe("agile");
    expect(empty.risks.join("\n")).toContain("no requirements");
  });
});
