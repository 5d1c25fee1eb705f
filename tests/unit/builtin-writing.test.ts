import { describe, expect, it } from "vitest";
import { aiMlFeature } from "#db/seed/templates/ai-ml-feature";
import { b2bSaas } from "#db/seed/templates/b2b-saas";
import { leanOnePager } from "#db/seed/templates/lean-one-pager";
import { mobileFeature } from "#db/seed/templates/mobile-feature";
import { standardPrd } from "#db/seed/templates/standard-prd";
import { technicalApi } from "#db/seed/templates/technical-api";
import type { BuiltinContext, BuiltinMemory } from "~/ai/builtin/contract";
import { improve, writingNotes } from "~/ai/builtin/improve";
import { runInterview } from "../support/interview";
import { builderTurn, chat, firstQuestion } from "~/ai/builtin/interview";
import { launchContent } from "~/ai/builtin/launch";
import { extractMemories } from "~/ai/builtin/memories";
import { generatePrd } from "~/ai/builtin/prd";
import { codeSpec, technicalSpecs, userStories } from "~/ai/builtin/specs";
import { IMPROVEMENT_TYPES, LAUNCH_CONTENT_TYPES, MEMORY_CATEGORIES, MEMORY_TYPES, PRD_STYLES } from "~/ai/schemas";

type Seed = { name: string; sections: string[]; initialQuestion: string };
const tpl = (s: Seed) => ({ name: s.name, sections: s.sections, initialQuestion: s.initialQuestion });
const ctxFor = (seed: Seed | null, extra: Partial<BuiltinContext> = {}): BuiltinContext => ({
  projectName: "Invoice chaser",
  template: seed ? tpl(seed) : null,
  memories: [],
  ...extra,
});
const h2 = (md: string) => [...md.matchAll(/^## (.+)$/gm)].map((m) => m[1]);
const bigNumbers = (text: string) => new Set(text.match(/\b\d{2,}\b/g) ?? []);

// The three answers of tests/api/ai-offline.test.ts.
const ANSWERS = [
  "Finance teams at mid-size companies chase unpaid invoices older than 90 days by hand in spreadsheets.",
  "Controllers and AR clerks; the clerk sends reminders, the controller approves write-offs.",
  "Cut days sales outstanding from 58 to 40 within two quarters of launch.",
];

const interview = runInterview;

describe("firstQuestion", () => {
  it("is the template's initial question, or a generic opening question", () => {
    expect(firstQuestion(ctxFor(standardPrd))).toBe(standardPrd.initialQuestion);
    const generic = firstQuestion(ctxFor(null));
    expect(generic).toMatch(/problem/i);
    expect(generic.trim().endsWith("?") || generic.includes("?")).toBe(true);
  });
});

describe("builderTurn", () => {
  const ctx = ctxFor(standardPrd);

  it("acknowledges each answer with its own words, covers sections and asks about an open one", () => {
    const { turns } = interview(ctx, ANSWERS);
    expect(turns).toHaveLength(3);
    expect(turns[0]!.response).toContain("invoices older than 90 days");
    expect(turns[1]!.response).toContain("Controllers and AR clerks");
    expect(turns[2]!.response).toContain("from 58 to 40");
    expect(turns[0]!.covered).toContain("Problem Statement");
    expect(turns[1]!.covered).toContain("Target Users and Personas");
    expect(turns[2]!.covered).toContain("Goals and Success Metrics");
    for (const t of turns) {
      expect(t.nextQuestion).toEqual(expect.any(String));
      expect(t.response).toContain(t.nextQuestion);
      expect([...t.covered, ...t.remaining].sort()).toEqual([...standardPrd.sections].sort());
      expect(t.covered.filter((c) => t.remaining.includes(c))).toEqual([]);
    }
    // Never the same question twice, and never again about a covered section.
    const questions = turns.map((t) => t.nextQuestion);
    expect(new Set(questions).size).toBe(questions.length);
    expect(turns[0]!.nextQuestion).not.toBe(standardPrd.initialQuestion);
    expect(turns[2]!.remaining).not.toContain("Goals and Success Metrics");
  });

  it("follows up on an answer that went to another section: it is kept there, and its question is asked again", () => {
    const { turns } = interview(ctx, ANSWERS.slice(0, 2));
    // The second answer (who the users are) answers the goals question with nothing about goals.
    expect(turns[0]!.nextQuestion).toMatch(/How will you know this worked/);
    expect(turns[1]!.response).toMatch(/Noted under \*\*.+\*\*: “Controllers and AR clerks/);
    expect(turns[1]!.response).toContain("doesn't answer the question about **Goals and Success Metrics** yet");
    expect(turns[1]!.nextQuestion).toMatch(/more specific about “Goals and Success Metrics”/);
    expect(turns[1]!.remaining).toContain("Goals and Success Metrics");
  });

  it("asks for specifics on the same topic after a short or vague answer, then moves on", () => {
    const { pairs, turns, next } = interview(ctx, ANSWERS.slice(0, 1));
    const vague = builderTurn({ qaPairs: pairs, question: next, answer: "not sure" }, ctx);
    expect(vague.nextQuestion).toMatch(/more specific/i);
    expect(vague.covered).toEqual(turns.at(-1)!.covered);
    const short = builderTurn({ qaPairs: pairs, question: next, answer: "Faster payments" }, ctx);
    expect(short.nextQuestion).toMatch(/more specific/i);
    expect(short.response).toContain("Faster payments");
    // The follow-up names the same section as the question it follows.
    const section = standardPrd.sections.find((s) => vague.nextQuestion!.includes(`“${s}”`))!;
    expect(section).toBe("Goals and Success Metrics");
    const again = builderTurn({ qaPairs: [...pairs, { question: next, answer: "not sure" }], question: vague.nextQuestion!, answer: "idk" }, ctx);
    expect(again.nextQuestion).not.toBeNull();
    expect(again.nextQuestion).not.toMatch(/more specific/i);
    expect(again.remaining).toContain("Goals and Success Metrics");
  });

  it("ends after eight substantive answers and sends the user to Generate PRD", () => {
    const answers = [
      ...ANSWERS,
      "Clerks must be able to send reminder emails in bulk from one screen.",
      "Only the email channel is in scope; SMS reminders are out of scope for the first release.",
      "Customers might treat reminders as spam, so we will cap them at one per week.",
      "A pilot with five existing accounts, then general availability after one month.",
      "We depend on the ERP export from the finance systems team.",
      "The list view must load within two seconds for ten thousand invoices.",
    ];
    const { turns } = interview(ctx, answers);
    expect(turns.length).toBeLessThanOrEqual(8);
    const last = turns.at(-1)!;
    expect(last.nextQuestion).toBeNull();
    expect(last.response).toMatch(/Generate PRD/);
    expect(last.response).toMatch(/key parts/i);
    expect(last.covered.length).toBeGreaterThan(6);
  });

  it("uses the default outline without a template and ends when every section is covered", () => {
    const plain = ctxFor(null);
    const answers = [
      ANSWERS[0]!,
      "Controllers and AR clerks at mid-size companies; the clerk sends reminders.",
      ANSWERS[2]!,
      "It must send reminder emails and let controllers approve write-offs.",
      "SMS is out of scope; we will not build a payment portal.",
      "The risk is that customers see reminders as spam.",
      "Launch a beta with five customers, then roll out to everyone.",
    ];
    const { turns } = interview(plain, answers);
    const last = turns.at(-1)!;
    expect([...last.covered, ...last.remaining].sort()).toEqual(
      ["Problem", "Goals and Success Metrics", "Target Users", "Requirements", "Scope and Non-Goals", "Risks", "Release Plan"].sort(),
    );
    expect(last.remaining).toEqual([]);
    expect(last.nextQuestion).toBeNull();
    expect(turns.length).toBeLessThanOrEqual(7);
  });

  it("is deterministic", () => {
    const a = builderTurn({ qaPairs: [], question: standardPrd.initialQuestion, answer: ANSWERS[0]! }, ctx);
    const b = builderTurn({ qaPairs: [], question: standardPrd.initialQuestion, answer: ANSWERS[0]! }, ctx);
    expect(a).toEqual(b);
  });
});

describe("chat", () => {
  it("restates the question, points at the PRD sections it touches and offers next steps", () => {
    const ctx = ctxFor(standardPrd);
    const answer = chat({ messages: [{ role: "user", content: "What are the biggest risks if controllers approve write-offs over $500?" }] }, ctx);
    expect(answer.length).toBeGreaterThan(20);
    expect(answer).toContain("controllers approve write-offs over $500");
    expect(answer).toContain("Risks and Mitigations");
    expect(answer).toMatch(/Next steps/);
    expect(answer).not.toMatch(/as an ai|language model/i);
    expect(chat({ messages: [{ role: "user", content: "hi" }] }, ctx)).toContain(standardPrd.initialQuestion);
    const again = chat({ messages: [{ role: "user", content: "What are the biggest risks if controllers approve write-offs over $500?" }] }, ctx);
    expect(again).toBe(answer);
  });

  it("recalls an earlier message on the same subject", () => {
    const answer = chat(
      {
        messages: [
          { role: "user", content: "Reminder emails go out every Monday to overdue customers." },
          { role: "assistant", content: "Noted." },
          { role: "user", content: "How often should reminder emails go out?" },
        ],
      },
      ctxFor(null),
    );
    expect(answer).toContain("Reminder emails go out every Monday");
  });
});

describe("generatePrd", () => {
  const ctx = ctxFor(standardPrd);
  const { pairs } = interview(ctx, ANSWERS);

  it("writes the template's sections in order, filled with the user's own words (the API scenario)", () => {
    const prd = generatePrd({ style: "comprehensive", qaPairs: pairs }, ctx);
    expect(prd).toMatch(/^# Invoice chaser\n/);
    expect(h2(prd)).toEqual(standardPrd.sections);
    expect(prd).toContain("## Problem Statement");
    expect(prd).toContain("## Goals and Success Metrics");
    expect(prd).toContain("invoices older than 90 days");
    expect(prd).toContain("from 58 to 40");
    expect(prd).toContain("- Cut days sales outstanding from 58 to 40 within two quarters of launch.");
    expect(prd).toMatch(/\| days sales outstanding \| 58 \| 40 \| within two quarters of launch \|/);
    // Stories from "the clerk sends reminders", with Given/When/Then.
    expect(prd).toMatch(/As an AR clerk, I want to send reminders, so that/);
    expect(prd).toMatch(/Given .+, When .+, Then .+/);
    // Gaps are open questions, and the last section lists them.
    const risks = prd.split("## Risks and Mitigations")[1]!.split("## ")[0]!;
    expect(risks).toContain("_Open question:_");
    const open = prd.split("## Open Questions")[1]!;
    expect(open).toContain("Risks and Mitigations");
    expect(open).toContain("Release Plan and Milestones");
    // No invented figures: every number of two digits or more comes from the answers.
    expect([...bigNumbers(prd)].every((n) => ANSWERS.join(" ").includes(n))).toBe(true);
  });

  it("keeps the exact sections of every system template, with and without answers", () => {
    for (const seed of [standardPrd, aiMlFeature, b2bSaas, leanOnePager, mobileFeature, technicalApi]) {
      const c = ctxFor(seed);
      expect(h2(generatePrd({ style: "comprehensive", qaPairs: [] }, c))).toEqual(seed.sections);
      const withAnswers = generatePrd({ style: "lean", qaPairs: interview(c, ANSWERS).pairs }, c);
      expect(h2(withAnswers)).toEqual(seed.sections);
      expect(withAnswers).toContain("older than 90 days");
    }
  });

  it("writes a different outline per style without a template", () => {
    const c = ctxFor(null);
    const p = interview(c, ANSWERS).pairs;
    const docs = Object.fromEntries(PRD_STYLES.map((s) => [s, generatePrd({ style: s, qaPairs: p }, c)]));
    expect(new Set(Object.values(docs)).size).toBe(PRD_STYLES.length);
    expect(new Set(PRD_STYLES.map((s) => h2(docs[s]!).join("|"))).size).toBe(PRD_STYLES.length);
    expect(docs.lean!.length).toBeLessThan(docs.comprehensive!.length);
    expect(h2(docs.technical!)).toEqual(expect.arrayContaining(["Architecture Overview", "Data Model", "API Design"]));
    expect(h2(docs.business!)).toEqual(expect.arrayContaining(["Business Case", "Goals and KPIs"]));
    expect(docs.agile).toMatch(/### Epic 1:/);
    expect(docs.agile).toMatch(/Given .+, When .+, Then .+/);
    for (const d of Object.values(docs)) expect(d).toContain("from 58 to 40");
  });

  it("outlines the PRD from the project alone when there are no answers", () => {
    const prd = generatePrd({ style: "comprehensive", qaPairs: [] }, ctxFor(standardPrd, { projectDescription: "Automatic dunning for B2B invoices." }));
    expect(prd).toMatch(/^# Invoice chaser/);
    expect(prd).toContain("Automatic dunning for B2B invoices.");
    expect(h2(prd)).toEqual(standardPrd.sections);
    expect(prd.match(/_Open question:_/g)!.length).toBeGreaterThan(8);
  });

  it("derives a title from the answers when the project has no name", () => {
    const prd = generatePrd({ style: "lean", qaPairs: pairs }, { template: null, memories: [] });
    expect(prd.split("\n")[0]).toMatch(/^# Finance teams at mid-size companies/);
  });

  it("uses memories: decisions under a fitting section, a short-output preference honoured", () => {
    const memories: BuiltinMemory[] = [
      { memoryType: "decision", category: "technical", content: "We decided to send reminders by email only, no SMS.", importance: 8 },
      { memoryType: "preference", category: "style", content: "Keep PRDs concise.", importance: 6 },
    ];
    const prd = generatePrd({ style: "comprehensive", qaPairs: pairs }, ctxFor(standardPrd, { memories }));
    expect(prd).toContain("**Decisions already made:**\n- We decided to send reminders by email only, no SMS.");
    expect(prd).toContain("Keep PRDs concise.");
    expect(prd).not.toContain("| Metric | Baseline |");
    expect(prd.length).toBeLessThan(generatePrd({ style: "comprehensive", qaPairs: pairs }, ctx).length);
  });

  it("is deterministic", () => {
    expect(generatePrd({ style: "agile", qaPairs: pairs }, ctx)).toBe(generatePrd({ style: "agile", qaPairs: pairs }, ctx));
  });
});

const DOC = `# Invoice chaser

## Goals
- In order to get paid faster we basically need to cut DSO from 58 to 40.
- The reminders are sent by the clerk , and the controller approves write-offs.
- Utilize the ERP export to facilitate reconciliation.

i think we recieve about 40 tickets a week and this is is very important, and we should really leverage our existing data in order to facilitate faster collection because each and every controller has to chase them by hand.

\`\`\`js
const teh = "is is";
\`\`\`

See [the spec](https://example.com/teh-page) for more.
`;

describe("improve", () => {
  const ctx = ctxFor(null);
  const run = (type: (typeof IMPROVEMENT_TYPES)[number], content = DOC, customPrompt?: string) =>
    improve({ content, improvementType: type, customPrompt }, ctx);

  it("fixes grammar: typos, doubled words, capitalisation and spacing", () => {
    const out = run("fix_grammar", "i think teh feature is is good.");
    expect(out).not.toContain("teh");
    expect(out).not.toBe("i think teh feature is is good.");
    expect(out).toBe("I think the feature is good.");
    expect(run("fix_grammar", "We recieve teh invoices , then we seperate them.")).toBe("We receive the invoices, then we separate them.");
  });

  it("keeps the Markdown structure, code and link targets", () => {
    for (const type of IMPROVEMENT_TYPES) {
      const out = run(type);
      expect(out).toContain("# Invoice chaser");
      expect(out).toContain("## Goals");
      expect(out).toContain('```js\nconst teh = "is is";\n```');
      expect(out).toContain("(https://example.com/teh-page)");
      expect(out.match(/^- /gm)!.length).toBeGreaterThanOrEqual(3);
      expect(out).not.toBe(DOC);
      expect(out).toBe(run(type));
      // Nothing invented: no figure that the input does not hold.
      expect([...bigNumbers(out)].every((n) => DOC.includes(n))).toBe(true);
    }
  });

  it("makes text concise by cutting filler, keeping the facts", () => {
    const out = run("make_concise");
    expect(out).not.toMatch(/in order to|each and every|very important/i);
    // Qualifiers are the writer's claim, not filler (issue 34): they stay.
    expect(out).toContain("basically need to cut DSO from 58 to 40");
    expect(out).toMatch(/I think we recieve about 40 tickets/);
    expect(out.split("\n").find((l) => l.includes("tickets a week"))).not.toMatch(/\bis is\b/);
    expect(out.length).toBeLessThan(DOC.length);
  });

  it("simplifies jargon and splits long sentences", () => {
    const out = run("simplify");
    expect(out).toContain("Use the ERP export to help reconciliation.");
    expect(out).not.toMatch(/leverage|utilize|facilitate/i);
    const para = (s: string) => s.split("\n").find((l) => /tickets a week/.test(l))!;
    expect(para(out).split(/[.!?](?:\s|$)/).length).toBeGreaterThan(para(DOC).split(/[.!?](?:\s|$)/).length);
  });

  it("improves writing: grammar and concision together; the passive-voice advice stays outside the text", () => {
    const out = run("improve_writing");
    expect(out).toContain("I think we receive about 40 tickets a week");
    expect(out).not.toMatch(/in order to|passive voice/);
    expect(writingNotes({ content: DOC, improvementType: "improve_writing" }).join(" ")).toMatch(/Passive voice in “The reminders are sent by the clerk/);
    expect(writingNotes({ content: DOC, improvementType: "make_concise" })).toEqual([]);
  });

  it("adds marked prompts without inventing facts", () => {
    const metrics = run("add_metrics");
    expect(metrics).toContain("- Utilize the ERP export to facilitate reconciliation.\n  - _Metric to define:_ baseline → target by <date>.");
    expect(metrics).toContain("  - _Timeframe to define:_");
    expect(run("add_user_focus")).toContain("_User outcome to state:_ what does the clerk get from this?");
    expect(run("add_detail")).toMatch(/_Detail to add:_ .*how it is verified/);
    expect(run("make_technical")).toContain("  - _Technical detail:_ interface (proposed: `PATCH /write-offs`), data it reads and writes");
  });

  it("uses a custom instruction to pick rules, and leaves the text alone when it has no rule for it", () => {
    const out = run("add_detail", "i think teh plan is good.", "Also fix the spelling please");
    expect(out).toContain("the plan");
    expect(out).toMatch(/_Detail to add:_/);
    expect(out).not.toMatch(/Instruction noted/);
    // The instruction is the text's to follow, not a note to write into it; one the drafter cannot carry out changes nothing.
    expect(run("improve_writing", DOC, "Make it sound more persuasive")).toBe(DOC);
    expect(run("fix_grammar", "i think teh plan is good.", "Keep the numbers as they are")).toBe("i think teh plan is good.");
  });
});

const PRD = `# Invoice chaser

## Problem Statement
Finance teams at mid-size companies chase unpaid invoices older than 90 days by hand in spreadsheets.

## Goals and Success Metrics
- Cut days sales outstanding from 58 to 40 within two quarters of launch.

## Target Users and Personas
- AR clerks send reminders; controllers approve write-offs.

## Functional Requirements
- FR-1 (Must): The system must send reminder emails for invoices older than 90 days.
- FR-2: Controllers can approve write-offs over $500.
- FR-3: Fix duplicate reminders when an invoice is paid twice.

## Non-Functional Requirements
- Reminder batches finish within 5 minutes for 10,000 invoices.

## Risks and Mitigations
- Customers may see reminders as spam.

## Open Questions
- Which ERP do we integrate first?
`;

describe("userStories", () => {
  const ctx = ctxFor(null);

  it("turns each requirement into a story with the PRD's personas, goals and Given/When/Then", () => {
    const out = userStories({ content: PRD, source: "prd" }, ctx);
    expect(out.match(/^### Story \d+:/gm)).toHaveLength(3);
    expect(out).toMatch(/As an? /);
    expect(out).toMatch(/Given .+ When .+ Then /);
    expect(out).toContain("As a controller, I want to approve write-offs over $500, so that");
    expect(out).toContain("older than 90 days");
    expect(out).toContain("so that we cut days sales outstanding from 58 to 40");
    // Criteria come from each requirement's own words: its outcome and its limit.
    expect(out).toContain("Then write-offs over $500 are approved.");
    expect(out).toContain("Write-offs that are not over $500 are outside this story.");
    expect(out).toContain("Invoices that are not older than 90 days get no reminder emails.");
    expect(userStories({ content: PRD, source: "prd" }, ctx)).toBe(out);
  });

  it("treats every list item of a feature text as a requirement", () => {
    const out = userStories({ content: "- Clerks can snooze a reminder\n- Show aging buckets on the dashboard", source: "feature" }, ctx);
    expect(out.match(/^### Story \d+:/gm)).toHaveLength(2);
    expect(out).toContain("I want to snooze a reminder");
    expect(out).toContain("[benefit to confirm]");
  });
});

describe("technicalSpecs and codeSpec", () => {
  const ctx = ctxFor(null);

  it("writes architecture, a proposed data model, endpoints from verbs, the PRD's NFRs and each focus area", () => {
    const out = technicalSpecs({ prdContent: PRD, focusAreas: ["security", "email deliverability"] }, ctx);
    for (const h of [
      "Architecture Overview (proposed)",
      "Components",
      "Data Model (proposed)",
      "API Endpoints (proposed)",
      "Non-Functional Requirements",
      "Security",
      "Email deliverability",
      "Open Technical Questions",
    ]) {
      expect(h2(out)).toContain(h);
    }
    expect(out).toContain("| POST | `/api/write-offs/:id/approve` |");
    // These requirements name records but none of their fields: no model is proposed, the question is asked.
    expect(out).toContain("_No data model yet: the requirements name no fields of any record._");
    expect(out).not.toMatch(/id, createdAt/);
    expect(out).toContain("Reminder batches finish within 5 minutes for 10,000 invoices.");
    expect(out).toContain("Which ERP do we integrate first?");
    expect(technicalSpecs({ prdContent: PRD, focusAreas: ["security", "email deliverability"] }, ctx)).toBe(out);
  });

  it("writes an implementation spec with signatures and a test per requirement", () => {
    const out = codeSpec({ content: PRD }, ctx);
    expect(out.length).toBeGreaterThan(100);
    expect(out).toContain("```ts");
    expect(out).toContain("export function approveWriteOff(");
    for (const req of ["REQ-1", "REQ-2", "REQ-3"]) expect(out).toMatch(new RegExp(`\\| ${req} \\|`));
    expect(out).toContain("**REQ-2:** Controllers can approve write-offs over $500.");
  });
});

describe("launchContent", () => {
  const ctx = ctxFor(null);
  const get = (t: (typeof LAUNCH_CONTENT_TYPES)[number]) => launchContent({ content: PRD, contentType: t }, ctx);

  it("writes each genre in its shape, from the PRD, with placeholders for unknown facts", () => {
    const blog = get("blog_post");
    expect(blog).toMatch(/^# Introducing Invoice chaser/);
    expect(blog).toContain("chase unpaid invoices older than 90 days");
    expect(blog).toContain("- Approve write-offs over $500");

    const press = get("press_release");
    expect(press).toMatch(/\*\*\[CITY\], \[DATE\]\*\* — /);
    expect(press).toContain("**About [Company name]**");
    expect(press).toMatch(/said \[Spokesperson name\]/);
    expect(press.trim().endsWith("###")).toBe(true);

    const email = get("email_announcement");
    expect(email).toMatch(/^\*\*Subject:\*\* /);
    expect(email).toContain("Hi [First name],");
    expect(email).toContain("from 58 to 40");

    const demo = get("demo_script");
    expect(demo).toMatch(/^1\. \*\*Set the scene\*\*/m);
    expect(demo).toContain("_Say:_ “As a controller, I can approve write-offs over $500.”");
    expect(demo).toContain("_Show:_");
    expect(demo).toContain("Which ERP do we integrate first?");

    const log = get("changelog");
    for (const h of ["### Added", "### Changed", "### Fixed"]) expect(log).toContain(h);
    expect(log.split("### Fixed")[1]).toContain("Fix duplicate reminders when an invoice is paid twice");
    expect(log.split("### Added")[1]!.split("### Changed")[0]).toContain("Send reminder emails for invoices older than 90 days");

    for (const t of LAUNCH_CONTENT_TYPES.filter((t) => t !== "social_media")) {
      expect([...bigNumbers(get(t))].every((n) => PRD.includes(n))).toBe(true);
    }
  });

  it("writes several social posts of at most 280 characters", () => {
    const out = get("social_media");
    const posts = out
      .split(/^### Post \d+ — .+$/m)
      .slice(1)
      .map((p) => p.trim().split("\n")[0]!);
    expect(posts.length).toBeGreaterThanOrEqual(3);
    for (const p of posts) expect(p.length).toBeLessThanOrEqual(280);
    expect(posts.join(" ")).toContain("Invoice chaser");
    expect(get("social_media")).toBe(out);
  });
});

describe("extractMemories", () => {
  const conversation = [
    { role: "user" as const, content: "We are a B2B fintech startup selling to mid-size finance teams. Our stack is Remix, Node and Postgres." },
    { role: "assistant" as const, content: "Thanks. Should reminders go by email or SMS?" },
    {
      role: "user" as const,
      content: "We decided to send reminders by email only. I prefer PRDs with short bullet lists. Please always include a rollback plan.",
    },
    { role: "assistant" as const, content: "I recommend launching to five pilot customers first. Does that work?" },
    { role: "user" as const, content: "Yes, sounds good." },
    { role: "user" as const, content: "The last draft was too long. Should we use Stripe? Our team is four engineers and a designer." },
    { role: "user" as const, content: "We decided to send reminders by email only." },
  ];
  const found = extractMemories({ conversation }, ctxFor(null));
  const byText = (t: string) => found.find((m) => m.content.includes(t));

  it("classifies preferences, decisions, context and feedback, in the user's words", () => {
    expect(byText("send reminders by email only")).toMatchObject({ memoryType: "decision" });
    expect(byText("I prefer PRDs with short bullet lists")).toMatchObject({ memoryType: "preference", category: "style" });
    expect(byText("Always include a rollback plan")).toMatchObject({ memoryType: "preference", category: "process" });
    expect(byText("Our stack is Remix, Node and Postgres")).toMatchObject({ memoryType: "project_context", category: "technical" });
    expect(byText("B2B fintech startup")).toMatchObject({ memoryType: "project_context", category: "business" });
    expect(byText("four engineers and a designer")).toMatchObject({ memoryType: "project_context", category: "team" });
    expect(byText("too long")).toMatchObject({ memoryType: "feedback", category: "style" });
    expect(byText("Keep outputs shorter")).toBeDefined();
    // The assistant's proposal counts because the user confirmed it.
    expect(byText("launching to five pilot customers first")).toMatchObject({ memoryType: "decision" });
  });

  it("keeps to the schema, skips questions and duplicates, weighs strong words higher", () => {
    expect(found.some((m) => m.content.includes("Stripe"))).toBe(false);
    expect(found.filter((m) => m.content.includes("email only"))).toHaveLength(1);
    for (const m of found) {
      expect(MEMORY_TYPES).toContain(m.memoryType);
      expect(MEMORY_CATEGORIES).toContain(m.category);
      expect(m.content.length).toBeLessThanOrEqual(2000);
      expect(m.summary.length).toBeLessThanOrEqual(200);
      expect(Number.isInteger(m.importance) && m.importance >= 1 && m.importance <= 10).toBe(true);
      // Grounded: the statement's opening words are the user's (or the confirmed proposal's).
      const head = m.content
        .replace(/^Agreed: /, "")
        .slice(0, 20)
        .toLowerCase();
      expect(conversation.map((c) => c.content.toLowerCase()).join(" ")).toContain(head);
    }
    expect(byText("Always include")!.importance).toBeGreaterThan(byText("I prefer PRDs")!.importance);
    expect(extractMemories({ conversation }, ctxFor(null))).toEqual(found);
  });

  it("returns at most 20 and nothing from small talk", () => {
    const many = Array.from({ length: 30 }, (_, i) => ({ role: "user" as const, content: `We decided to use vendor number ${i} for module ${i}.` }));
    expect(extractMemories({ conversation: many }, ctxFor(null))).toHaveLength(20);
    expect(extractMemories({ conversation: [{ role: "user", content: "Hello there, how are you?" }] }, ctxFor(null))).toEqual([]);
  });
});
