import { describe, expect, it } from "vitest";
import { type CheckRule, checkPrd } from "~/prd-rules/check";
import { FULL_PRD } from "../support/prd-fixtures";

const rules = (text: string, sections?: string[]) => checkPrd(text, { sections }).issues.map((i) => i.rule);
const of = (text: string, rule: CheckRule, sections?: string[]) => checkPrd(text, { sections }).issues.filter((i) => i.rule === rule);

describe("checkPrd", () => {
  it("flags the example from the brief", () => {
    const check = checkPrd("# X\n\n## Goals\n- Make onboarding fast\n\nTODO: pricing", {
      sections: ["Problem Statement", "Goals", "Users"],
    });
    const found = check.issues.map((i) => i.rule);
    expect(found).toEqual(expect.arrayContaining(["missing_section", "vague_word", "open_todo", "goal_without_number"]));
    expect(check.sections).toEqual({
      expected: ["Problem Statement", "Goals", "Users"],
      present: ["Goals"],
      missing: ["Problem Statement", "Users"],
    });
    const vague = check.issues.find((i) => i.rule === "vague_word")!;
    expect(vague).toMatchObject({
      line: 4,
      section: "Goals",
      severity: "low",
      excerpt: "- Make onboarding fast",
    });
    expect(vague.message).toContain("“fast”");
    expect(check.issues.find((i) => i.rule === "open_todo")).toMatchObject({
      line: 6,
      section: "Goals",
      severity: "low",
    });
    expect(check.issues.find((i) => i.rule === "goal_without_number")).toMatchObject({ line: 4, severity: "medium" });
    expect(check.issues.find((i) => i.rule === "missing_section")).toMatchObject({
      section: "Problem Statement",
      line: null,
      severity: "high",
    });
  });

  it("matches template sections tolerant of case, '&' and numbering", () => {
    const text = "# T\n\n## 1. goals & metrics\nReach 10 teams.\n\n## PROBLEM STATEMENT\nIt hurts.\n";
    const check = checkPrd(text, {
      sections: ["Goals and Metrics", "Problem Statement", "Risks"],
    });
    expect(check.sections.present).toEqual(["Goals and Metrics", "Problem Statement"]);
    expect(check.sections.missing).toEqual(["Risks"]);
  });

  it("uses the standard outline by keyword when there is no template", () => {
    const text = [
      "# T",
      "## Background",
      "Why now.",
      "## Objectives & KPIs",
      "- 20% more signups",
      "## Personas",
      "- Ops lead",
      "## Functional Requirements",
      "- Export to CSV",
      "## Out of Scope",
      "- Mobile",
    ].join("\n\n");
    const check = checkPrd(text, {});
    expect(check.sections.expected).toEqual([
      "Problem",
      "Goals and Success Metrics",
      "Target Users",
      "Requirements",
      "Scope and Non-Goals",
      "Risks",
      "Open Questions",
    ]);
    expect(check.sections.missing).toEqual(["Risks", "Open Questions"]);
    // "Non-Goals" is not a goals section, and "User Stories" is not a users section.
    const other = checkPrd("# T\n\n## Non-Goals\n- Mobile\n\n## User Stories\n- As a user I want x\n", {});
    expect(other.sections.present).toEqual(["Requirements", "Scope and Non-Goals"]);
    expect(of("# T\n\n## Non-Goals\n- Mobile app\n", "goal_without_number")).toEqual([]);
  });

  it("flags empty sections and placeholder-only sections, not sections with code or sub-sections with text", () => {
    const text = [
      "# T", //1
      "", //2
      "## Problem", //3
      "", //4
      "## Risks", //5
      "TBD", //6
      "- [placeholder]", //7
      "## API", //8
      "```json", //9
      '{"a": 1}', //10
      "```", //11
      "## Scope", //12
      "### In scope", //13
      "CSV export only.", //14
      "## Open Questions", //15
      "### Pricing", //16
    ].join("\n");
    const empty = of(text, "empty_section");
    expect(empty.map((i) => [i.section, i.line])).toEqual([
      ["Problem", 3],
      ["Risks", 5],
      ["Open Questions", 15],
    ]);
    expect(empty[0]!.severity).toBe("medium");
  });

  it("counts a question after a TBD marker as content", () => {
    expect(of("# T\n\n## Open Questions\n- TBD: which payment provider first?\n", "empty_section")).toEqual([]);
    expect(of("# T\n\n## Open Questions\n- TBD: which payment provider first?\n", "open_todo")).toHaveLength(1);
  });

  it("checks goals in goal, metric, success and objective sections, with nested metrics and tables", () => {
    const text = [
      "# T", //1
      "## Goals", //2
      "We measure success by:", //3
      "- Faster checkout", //4
      "  - p95 under 2 seconds", //5
      "- Fewer support tickets", //6
      "- Reach 1,000 paying teams by Q4", //7
      "## Success Metrics", //8
      "| Metric | Target |", //9
      "|---|---|", //10
      "| Activation | 40% |", //11
      "| Retention | higher |", //12
      "## Objectives", //13
      "Delight admins. Cut churn to 3%.", //14
    ].join("\n");
    const goals = of(text, "goal_without_number");
    expect(goals.map((g) => g.line)).toEqual([6, 12, 14]);
    expect(goals[0]).toMatchObject({
      section: "Goals",
      excerpt: "Fewer support tickets",
    });
    expect(goals[2]).toMatchObject({
      section: "Objectives",
      excerpt: "Delight admins.",
    });
    const stats = checkPrd(text).stats;
    expect(stats.goals).toBe(7);
    expect(stats.goalsWithNumbers).toBe(4);
  });

  it("finds vague words as whole words, one issue per line, outside code", () => {
    const text = [
      "# T", //1
      "## Requirements", //2
      "- The UI is simple, intuitive and user-friendly.", //3
      "- Search results appear quickly, etc.", //4
      "- Simpleton fastidious someone breakfast", //5
      "- Use the `fast` flag", //6
      "```", //7
      "make it fast and easy", //8
      "```", //9
      "- Retry as needed and so on", //10
    ].join("\n");
    const vague = of(text, "vague_word");
    expect(vague.map((v) => v.line)).toEqual([3, 4, 10]);
    expect(vague[0]!.message).toContain("“simple”, “intuitive”, “user-friendly”");
    expect(vague[1]!.message).toContain("“quickly”, “etc”");
    expect(vague[2]!.message).toContain("“as needed”, “and so on”");
    expect(checkPrd(text).stats.vagueWords).toBe(7);
  });

  it("flags user stories without Given/When/Then or acceptance criteria before the next story or heading", () => {
    const text = [
      "# T", //1
      "## Stories", //2
      "As a buyer, I want to save my card so that I pay faster.", //3
      "- Given a saved card, when I pay, then I am not asked again.", //4
      "As an admin I want to export orders.", //5
      "As a guest, I want to check out without an account.", //6
      "Acceptance criteria:", //7
      "- No sign-up step", //8
      "As a manager I need a weekly report.", //9
      "## Other", //10
      "Then the report arrives.", //11
      "- As a user, I can undo a payment", //12
      "#### Acceptance criteria", //13
      "- Undo within 10 minutes", //14
    ].join("\n");
    const stories = of(text, "story_without_acceptance");
    expect(stories.map((s) => s.line)).toEqual([5, 9]);
    expect(stories[0]).toMatchObject({
      section: "Stories",
      severity: "medium",
    });
    const stats = checkPrd(text).stats;
    expect(stats.stories).toBe(5);
    expect(stats.storiesWithAcceptance).toBe(3);
  });

  it("flags TODO, TBD, FIXME, XXX, ??? and [placeholder] markers, not 'todo' in prose or code", () => {
    const text = [
      "# T", //1
      "## Problem", //2
      "The todo list app is popular.", //3
      "Pricing: TBD", //4
      "FIXME and XXX here", //5
      "Who owns this???", //6
      "Budget: [placeholder]", //7
      "Run `TODO` linter", //8
      "```", //9
      "TODO: not prose", //10
      "```", //11
      "## Launch (tbd)", //12
      "TODO write", //13
    ].join("\n");
    const todos = of(text, "open_todo");
    expect(todos.map((t) => t.line)).toEqual([4, 5, 6, 7, 12, 13]);
    expect(todos[1]!.message).toContain("“FIXME”, “XXX”");
    expect(todos[4]!.section).toBe("Launch (tbd)");
    expect(checkPrd(text).stats.todos).toBe(7);
  });

  it("reports 1-based lines with CRLF line endings and null sections before the first H2", () => {
    const issues = of("# T\r\nSome intro.\r\n\r\n## Goals\r\n- Grow", "vague_word");
    expect(issues).toHaveLength(1);
    expect(issues[0]).toMatchObject({ line: 2, section: null });
    expect(of("# T\r\nSome intro.\r\n\r\n## Goals\r\n- Grow", "goal_without_number")[0]!.line).toBe(5);
  });

  it("sorts by severity then line, with stable ids and counts", () => {
    const text = "# T\n\n## Goals\n- Make it easy\n- TODO later\n\n## Stories\nAs a user, I want x.\n";
    const a = checkPrd(text, { sections: ["Goals", "Risks"] });
    const severities = a.issues.map((i) => i.severity);
    expect(severities).toEqual([...severities].sort((x, y) => ["high", "medium", "low"].indexOf(x) - ["high", "medium", "low"].indexOf(y)));
    for (let i = 1; i < a.issues.length; i++) {
      const [p, q] = [a.issues[i - 1]!, a.issues[i]!];
      if (p.severity === q.severity) expect(p.line ?? 0).toBeLessThanOrEqual(q.line ?? 0);
    }
    expect(a.counts).toEqual({
      high: a.issues.filter((i) => i.severity === "high").length,
      medium: a.issues.filter((i) => i.severity === "medium").length,
      low: a.issues.filter((i) => i.severity === "low").length,
    });
    expect(new Set(a.issues.map((i) => i.id)).size).toBe(a.issues.length);
    expect(checkPrd(text, { sections: ["Goals", "Risks"] })).toEqual(a);
    // Ids do not change when an unrelated line is edited.
    const b = checkPrd(text.replace("As a user, I want x.", "As a user, I want y."), { sections: ["Goals", "Risks"] });
    expect(b.issues.find((i) => i.rule === "vague_word")!.id).toBe(a.issues.find((i) => i.rule === "vague_word")!.id);
  });

  it("shortens long excerpts", () => {
    const issue = of(`# T\n\n## Goals\n- ${"grow the business ".repeat(20)}`, "goal_without_number")[0]!;
    expect(issue.excerpt!.length).toBeLessThanOrEqual(120);
    expect(issue.excerpt!.endsWith("…")).toBe(true);
  });

  it("finds none of the writing-rule issues in a good PRD", () => {
    const check = checkPrd(FULL_PRD);
    expect(check.issues).toEqual([]);
    expect(check.sections.missing).toEqual([]);
    expect(check.stats).toMatchObject({
      sections: 9,
      goals: 3,
      goalsWithNumbers: 3,
      stories: 2,
      storiesWithAcceptance: 2,
      todos: 0,
      vagueWords: 0,
    });
    expect(check.stats.words).toBeGreaterThan(300);
    expect(check.stats.listItems).toBeGreaterThan(20);
  });

  it("checks an empty document as all sections missing", () => {
    const check = checkPrd("", {});
    expect(rules("")).toEqual(Array(7).fill("missing_section"));
    expect(check.counts).toEqual({ high: 7, medium: 0, low: 0 });
    expect(check.stats.words).toBe(0);
  });

  it("treats open questions and bare labels as gaps, not content", () => {
    const text = "# X\n\n## Risks\n_Open question:_ what could go wrong?\n\n## Scope\n**In scope**\n- Reminders by e-mail\n";
    const empty = of(text, "empty_section", ["Risks", "Scope"]).map((i) => i.section);
    expect(empty).toEqual(["Risks"]);
  });
});
