import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { ensureSystemTemplates } from "~/domain/templates/system.server";
import { signedUpClient } from "../support/client";
import { type Account, expectError, joinOrg, setPlan } from "../support/org";
import { expectSseStream } from "../support/sse";

/**
 * The AI endpoints on a fresh install with no key anywhere: the offline
 * drafter answers every one of them, per the contract, with `model: builtin`.
 */

let owner: Account;
let member: Account;
let outsider: Account;
let projectId: string;

const answers = [
  "Finance teams at mid-size companies chase unpaid invoices older than 90 days by hand in spreadsheets.",
  "Controllers and AR clerks; the clerk sends reminders, the controller approves write-offs.",
  "Cut days sales outstanding from 58 to 40 within two quarters of launch.",
];

beforeAll(async () => {
  await ensureSystemTemplates();
  owner = await signedUpClient({ name: "Olga Owner" });
  await setPlan(owner.organization.id, "enterprise");
  member = await joinOrg(owner.organization.id, "member", "Max Member");
  outsider = await signedUpClient({ name: "Otto Outsider" });
  await setPlan(outsider.organization.id, "enterprise");
  const res = await owner.client.post("/api/projects", { name: "Invoice chaser", templateId: "sys-standard-prd" });
  expect(res.status, res.text).toBe(201);
  projectId = res.body.id;
});

describe("the conversational builder", () => {
  it("starts with the template's first question", async () => {
    const template = await db.selectFrom("templates").select("initialQuestion").where("id", "=", "sys-standard-prd").executeTakeFirstOrThrow();
    const res = await owner.client.get(`/api/projects/${projectId}/conversation`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ qaPairs: [], nextQuestion: template.initialQuestion, complete: false });
  });

  it("saves each answer with the question it answers (non-streaming)", async () => {
    const before = await owner.client.get(`/api/projects/${projectId}/conversation`);
    const res = await owner.client.post(`/api/projects/${projectId}/chat`, { message: answers[0] });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ qaPairId: expect.any(String), model: "builtin", provider: "builtin", keySource: "builtin" });
    expect(typeof res.body.response).toBe("string");
    expect(res.body.response.length).toBeGreaterThan(10);
    expect(res.body.nextQuestion).toEqual(expect.any(String));
    const after = await owner.client.get(`/api/projects/${projectId}/conversation`);
    expect(after.body.qaPairs).toHaveLength(1);
    expect(after.body.qaPairs[0]).toMatchObject({
      id: res.body.qaPairId,
      position: 1,
      question: before.body.nextQuestion,
      answer: answers[0],
      response: res.body.response,
      model: "builtin",
    });
    expect(after.body.nextQuestion).toBe(res.body.nextQuestion);
  });

  it("shows the conversation's Markdown rendered and sanitized on the builder page", async () => {
    const own = (await owner.client.post("/api/projects", { name: "Markdown bubbles" })).body.id as string;
    const res = await owner.client.post(`/api/projects/${own}/chat`, {
      message: "We need **two-way** SMS:\n\n- confirm by C\n- cancel by X <img src=x onerror=alert(1)>",
    });
    expect(res.status, res.text).toBe(200);
    const page = await owner.client.get(`/projects/${own}/builder`);
    expect(page.status).toBe(200);
    const bubble = /<div class="bubble user">([\s\S]*?)<\/div><\/div>/.exec(page.text)?.[1] ?? "";
    expect(bubble).toContain("<strong>two-way</strong>");
    expect(bubble).toMatch(/<li>confirm by C<\/li>/);
    expect(bubble).not.toContain("**");
    expect(bubble).not.toMatch(/onerror/);
  });

  it("streams the reply over SSE and saves the pair before done", async () => {
    const res = await owner.client.post(`/api/projects/${projectId}/conversation/stream`, { message: answers[1] });
    const { last, events } = expectSseStream(res);
    expect(events[0]).toMatchObject({ type: "progress" });
    expect(last).toMatchObject({ model: "builtin", qaPairId: expect.any(String), response: last.fullContent });
    const pair = await db.selectFrom("projectQaPairs").selectAll().where("id", "=", last.qaPairId).executeTakeFirstOrThrow();
    expect(pair).toMatchObject({ projectId, answer: answers[1], position: 2, response: last.fullContent });
    await owner.client.post(`/api/projects/${projectId}/chat`, { message: answers[2] });
  });

  it("uses the last assistant message of conversationHistory as the question", async () => {
    const other = await owner.client.post("/api/projects", { name: "History check" });
    const res = await owner.client.post(`/api/projects/${other.body.id}/chat`, {
      message: "Only admins",
      conversationHistory: [
        { role: "assistant", content: "Who may approve a refund?" },
        { role: "user", content: "earlier" },
      ],
    });
    expect(res.status, res.text).toBe(200);
    const pair = await db.selectFrom("projectQaPairs").selectAll().where("id", "=", res.body.qaPairId).executeTakeFirstOrThrow();
    expect(pair.question).toBe("Who may approve a refund?");
  });

  it("validates the body and needs edit rights", async () => {
    expectError(await owner.client.post(`/api/projects/${projectId}/chat`, {}), 400, "VALIDATION_ERROR");
    const long = await owner.client.post(`/api/projects/${projectId}/chat`, { message: "x".repeat(10_001) });
    expectError(long, 400, "VALIDATION_ERROR");
    expect(long.body.details[0].path).toBe("message");
    expectError(await member.client.post(`/api/projects/${projectId}/chat`, { message: "hi" }), 403, "FORBIDDEN");
    expectError(await outsider.client.post(`/api/projects/${projectId}/chat`, { message: "hi" }), 404, "NOT_FOUND");
    expectError(await outsider.client.get(`/api/projects/${projectId}/conversation`), 404, "NOT_FOUND");
  });
});

describe("PRD generation", () => {
  it("writes the PRD from the answers and the template, as a new version, and emits prd.generated", async () => {
    const res = await owner.client.post("/api/generate-prd", { projectId, style: "comprehensive" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ model: "builtin", style: "comprehensive", truncated: false, qaPairsUsed: 3 });
    const content: string = res.body.content;
    expect(content).toMatch(/^# /);
    expect(content).toContain("## Problem Statement");
    expect(content).toContain("## Goals and Success Metrics");
    expect(content).toContain("invoices older than 90 days");
    expect(content).toContain("from 58 to 40");
    expect(res.body.prd).toMatchObject({ projectId, content, style: "comprehensive", versionNumber: 1 });
    const prd = await owner.client.get(`/api/projects/${projectId}/prd`);
    expect(prd.body.prd.content).toBe(content);
    const versions = await owner.client.get(`/api/projects/${projectId}/prd/versions`);
    expect(versions.body.versions[0]).toMatchObject({ number: 1, source: "generate" });
    const events = await db.selectFrom("events").select(["name", "data"]).where("name", "in", ["prd.generated", "prd.updated"]).execute();
    const generated = events.filter((e) => e.name === "prd.generated").map((e) => JSON.parse(e.data));
    expect(generated).toContainEqual(expect.objectContaining({ projectId, versionNumber: 1, model: "builtin" }));
  });

  it("refuses to overwrite an existing PRD unless regenerate is true, then keeps both versions", async () => {
    const refused = await owner.client.post("/api/generate-prd", { projectId });
    expectError(refused, 409, "CONFLICT");
    const res = await owner.client.post("/api/generate-prd/stream", { projectId, style: "lean", regenerate: true });
    const { last, events } = expectSseStream(res);
    expect(events.some((e) => e.type === "progress" && e.percent > 0 && e.percent < 100)).toBe(true);
    expect(last).toMatchObject({ model: "builtin", style: "lean", version: { number: 2 } });
    expect(last.prd.content).toBe(last.fullContent);
    const versions = await owner.client.get(`/api/projects/${projectId}/prd/versions`);
    expect(versions.body.versions.map((v: { number: number }) => v.number)).toEqual([2, 1]);
  });

  it("validates style and projectId and hides other organizations' projects", async () => {
    const bad = await owner.client.post("/api/generate-prd", { projectId, style: "poetic", regenerate: true });
    expectError(bad, 400, "VALIDATION_ERROR");
    expect(bad.body.details[0].path).toBe("style");
    expectError(await owner.client.post("/api/generate-prd", {}), 400, "VALIDATION_ERROR");
    expectError(await outsider.client.post("/api/generate-prd", { projectId, regenerate: true }), 404, "NOT_FOUND");
    const stream = await outsider.client.post("/api/generate-prd/stream", { projectId, regenerate: true });
    expectError(stream, 404, "NOT_FOUND");
  });
});

describe("conversation export", () => {
  it("downloads JSON, CSV safe against formula injection, and PDF", async () => {
    const other = (await owner.client.post("/api/projects", { name: "Export me" })).body.id;
    await owner.client.post(`/api/projects/${other}/chat`, { message: '=HYPERLINK("http://evil","x")' });
    const json = await owner.client.get(`/api/projects/${other}/chat-export?format=json`);
    expect(json.status).toBe(200);
    expect(json.headers.get("Content-Disposition")).toMatch(/attachment; filename="export-me-conversation.json"/);
    expect(json.body.qaPairs[0].answer).toBe('=HYPERLINK("http://evil","x")');
    const csv = await owner.client.get(`/api/projects/${other}/chat-export?format=csv`);
    expect(csv.headers.get("Content-Type")).toContain("text/csv");
    expect(csv.text).toContain("position,question,answer,response,model,createdAt");
    expect(csv.text).toContain(`"'=HYPERLINK(""http://evil"",""x"")"`);
    expect(csv.text).not.toMatch(/(^|,)"?=HYPERLINK/m);
    const pdf = await owner.client.get(`/api/projects/${other}/chat-export?format=pdf`);
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    expect(pdf.text.startsWith("%PDF-")).toBe(true);
    expectError(await owner.client.get(`/api/projects/${other}/chat-export?format=docx`), 400, "VALIDATION_ERROR");
    expectError(await outsider.client.get(`/api/projects/${other}/chat-export?format=json`), 404, "NOT_FOUND");
  });
});

describe("chat", () => {
  it("answers {role, content} with the offline drafter and saves nothing", async () => {
    const before = await db
      .selectFrom("projectQaPairs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    const res = await owner.client.post("/api/chat", {
      messages: [{ role: "user", content: "Help me draft a PRD for an invoice reminder feature" }],
      projectId,
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ role: "assistant", model: "builtin", provider: "builtin" });
    expect(res.body.content.length).toBeGreaterThan(20);
    const after = await db
      .selectFrom("projectQaPairs")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .executeTakeFirstOrThrow();
    expect(after.n).toBe(before.n);
  });

  it("validates messages and provider", async () => {
    expectError(await owner.client.post("/api/chat", {}), 400, "VALIDATION_ERROR");
    expectError(await owner.client.post("/api/chat", { messages: [] }), 400, "VALIDATION_ERROR");
    const role = await owner.client.post("/api/chat", { messages: [{ role: "robot", content: "hi" }] });
    expectError(role, 400, "VALIDATION_ERROR");
    expect(role.body.details[0].path).toBe("messages.0.role");
    const provider = await owner.client.post("/api/chat", { messages: [{ role: "user", content: "hi" }], provider: "provider_z" });
    expectError(provider, 400, "VALIDATION_ERROR");
    expect(provider.body.details[0].path).toBe("provider");
    expectError(await outsider.client.post("/api/chat", { messages: [{ role: "user", content: "hi" }], projectId }), 404, "NOT_FOUND");
  });

  it("falls back to the offline drafter when the named provider has no key", async () => {
    const res = await owner.client.post("/api/chat", { messages: [{ role: "user", content: "hello" }], provider: "provider_b" });
    expect(res.status).toBe(200);
    expect(res.body.model).toBe("builtin");
  });
});

describe("AI tools", () => {
  let prd: string;
  beforeAll(async () => {
    prd = (await owner.client.get(`/api/projects/${projectId}/prd`)).body.prd.content;
  });

  it("coach streams a summary and ends with a full review; with projectId it is saved as a stakeholder view", async () => {
    const res = await owner.client.post("/api/ai/coach", { prdContent: prd, projectId });
    const { last } = expectSseStream(res);
    const review = last.review;
    expect(Object.keys(review).sort()).toEqual(
      ["dimensions", "executiveSummary", "improvements", "missingSections", "overallScore", "recommendations", "strengths"].sort(),
    );
    expect(Object.keys(review.dimensions).sort()).toEqual(["clarity", "completeness", "metrics", "riskAssessment", "technicalFeasibility", "userFocus"].sort());
    expect(review.overallScore).toBeGreaterThanOrEqual(0);
    expect(review.overallScore).toBeLessThanOrEqual(100);
    expect(last.model).toBe("builtin");
    const views = await owner.client.get(`/api/projects/${projectId}/stakeholder-views`);
    const saved = views.body.views.find((v: { id: string }) => v.id === last.stakeholderViewId);
    expect(saved).toMatchObject({ kind: "ai_review", payload: { review, model: "builtin" } });
  });

  it("coach measures: a thin PRD scores lower than the generated one", async () => {
    const thin = expectSseStream(await owner.client.post("/api/ai/coach", { prdContent: "# Idea\n\nMake it fast and easy. TODO" })).last;
    const full = expectSseStream(await owner.client.post("/api/ai/coach", { prdContent: prd })).last;
    expect(thin.review.overallScore).toBeLessThan(full.review.overallScore);
    expect(thin.review.missingSections.length).toBeGreaterThan(0);
  });

  it("improve lists the eight types and streams a rewrite", async () => {
    const list = await owner.client.get("/api/ai/improve");
    expect(list.body.improvementTypes.map((t: { type: string }) => t.type)).toEqual([
      "improve_writing",
      "make_concise",
      "add_detail",
      "fix_grammar",
      "make_technical",
      "simplify",
      "add_user_focus",
      "add_metrics",
    ]);
    for (const t of list.body.improvementTypes) expect(t.label).toEqual(expect.any(String));
    const res = await owner.client.post("/api/ai/improve", { content: "i think teh feature is is good.", improvementType: "fix_grammar" });
    const { last } = expectSseStream(res);
    expect(last.fullContent).not.toContain("teh");
    expect(last).toMatchObject({ improvementType: "fix_grammar", changed: true, model: "builtin" });
    const bad = await owner.client.post("/api/ai/improve", { content: "x", improvementType: "make_funny" });
    expectError(bad, 400, "VALIDATION_ERROR");
    expect(bad.body.details[0].path).toBe("improvementType");
  });

  it("suggestions: 3 to 5, every field", async () => {
    const res = await owner.client.post("/api/ai/suggestions", { content: "# Idea\n\n## Goals\n- Be faster\n", projectName: "Idea" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.suggestions.length).toBeGreaterThanOrEqual(3);
    expect(res.body.suggestions.length).toBeLessThanOrEqual(5);
    for (const s of res.body.suggestions) {
      expect(s).toEqual({
        id: expect.any(String),
        section: expect.any(String),
        type: expect.any(String),
        title: expect.any(String),
        description: expect.any(String),
        severity: expect.stringMatching(/^(high|medium|low)$/),
      });
    }
    expectError(await owner.client.post("/api/ai/suggestions", {}), 400, "VALIDATION_ERROR");
  });

  it("user stories, technical specs, code spec and launch content stream Markdown grounded in the PRD and save to the project", async () => {
    const calls: [string, Record<string, unknown>][] = [
      ["/api/ai/user-stories", { content: prd, source: "prd", projectId }],
      ["/api/ai/technical-specs", { prdContent: prd, focusAreas: ["security"], projectId }],
      ["/api/ai/code-spec", { content: prd, projectId }],
      ["/api/ai/launch-content", { content: prd, contentType: "press_release", projectId }],
    ];
    for (const [path, body] of calls) {
      const { last } = expectSseStream(await owner.client.post(path, body));
      expect(last.model, path).toBe("builtin");
      expect(last.fullContent.length, path).toBeGreaterThan(100);
      expect(last.outputId, path).toEqual(expect.any(String));
    }
    const outputs = await owner.client.get(`/api/projects/${projectId}/ai-outputs`);
    expect(outputs.body.outputs.map((o: { kind: string }) => o.kind).sort()).toEqual(["code_spec", "launch_content", "technical_specs", "user_stories"].sort());
    const stories = outputs.body.outputs.find((o: { kind: string }) => o.kind === "user_stories");
    expect(stories.content).toMatch(/As an? /);
    expect(stories.content).toMatch(/Given .*When .*Then|Given[\s\S]*When[\s\S]*Then/);
    const del = await owner.client.delete(`/api/projects/${projectId}/ai-outputs/${stories.id}`);
    expect(del.body).toEqual({ success: true });
    expectError(await outsider.client.get(`/api/projects/${projectId}/ai-outputs`), 404, "NOT_FOUND");
  });

  it("tools with a projectId need edit rights there", async () => {
    const res = await member.client.post("/api/ai/user-stories", { content: prd, source: "prd", projectId });
    expectError(res, 403, "FORBIDDEN");
    const ok = await member.client.post("/api/ai/user-stories", { content: prd, source: "prd" });
    expect(expectSseStream(ok).last.outputId).toBeNull();
  });

  it("validates the enums of every tool", async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ["/api/ai/user-stories", { content: "x", source: "tweet" }, "source"],
      ["/api/ai/roadmap", { prdContent: "x", teamSize: "huge", methodology: "scrum" }, "teamSize"],
      ["/api/ai/roadmap", { prdContent: "x", teamSize: "small" }, "methodology"],
      ["/api/ai/launch-content", { content: "x", contentType: "poem" }, "contentType"],
      ["/api/ai/wireframe", { content: "x", diagramType: "pie" }, "diagramType"],
      ["/api/ai/coach", {}, "prdContent"],
      ["/api/ai/technical-specs", { prdContent: "   " }, "prdContent"],
      ["/api/ai/code-spec", {}, "content"],
    ];
    for (const [path, body, field] of cases) {
      const res = await owner.client.post(path, body);
      expectError(res, 400, "VALIDATION_ERROR");
      expect(
        res.body.details.map((d: { path: string }) => d.path),
        path,
      ).toContain(field);
    }
  });

  it("roadmap: phases with milestones, tasks and consistent weeks", async () => {
    const res = await owner.client.post("/api/ai/roadmap", { prdContent: prd, teamSize: "small", methodology: "scrum", projectId });
    expect(res.status, res.text).toBe(200);
    const { roadmap } = res.body;
    expect(roadmap.phases.length).toBeGreaterThan(0);
    let week = 1;
    for (const phase of roadmap.phases) {
      expect(phase.startWeek).toBe(week);
      week += phase.durationWeeks;
      expect(Array.isArray(phase.milestones)).toBe(true);
      expect(phase.tasks.length).toBeGreaterThan(0);
    }
    expect(roadmap.totalWeeks).toBe(week - 1);
    expect(res.body.outputId).toEqual(expect.any(String));
    const large = await owner.client.post("/api/ai/roadmap", { prdContent: prd, teamSize: "large", methodology: "scrum" });
    expect(large.body.roadmap.totalWeeks).toBeLessThanOrEqual(roadmap.totalWeeks);
  });

  it("wireframe streams Mermaid without fences for every diagram type", async () => {
    const starts: Record<string, RegExp> = {
      user_flow: /^flowchart TD/,
      system_architecture: /^flowchart LR/,
      screen_layout: /^flowchart TB/,
      data_flow: /^flowchart LR/,
      sequence: /^sequenceDiagram/,
      journey_map: /^journey/,
    };
    for (const [diagramType, start] of Object.entries(starts)) {
      const { last } = expectSseStream(await owner.client.post("/api/ai/wireframe", { content: prd, diagramType }));
      expect(last.fullContent, diagramType).toMatch(start);
      expect(last.fullContent).not.toContain("```");
      expect(last).toMatchObject({ diagramType, format: "mermaid" });
    }
  });
});

describe("project score", () => {
  it("is null until scored, then keeps a history", async () => {
    const empty = (await owner.client.post("/api/projects", { name: "Unscored" })).body.id;
    expect((await owner.client.get(`/api/projects/${empty}/score`)).body).toEqual({ score: null, history: [] });
    expectError(await owner.client.post(`/api/projects/${empty}/score`, {}), 404, "NOT_FOUND");

    const first = await owner.client.post(`/api/projects/${projectId}/score`, {});
    expect(first.status, first.text).toBe(201);
    const keys = ["clarity", "completeness", "metrics", "riskAssessment", "technicalFeasibility", "userFocus"];
    expect(Object.keys(first.body.score.breakdown).sort()).toEqual(keys);
    expect(Object.keys(first.body.score.feedback).sort()).toEqual(keys);
    expect(first.body.score.model).toBe("builtin");
    await owner.client.post(`/api/projects/${projectId}/score`, {});
    const got = await owner.client.get(`/api/projects/${projectId}/score`);
    expect(got.body.history).toHaveLength(2);
    expect(got.body.score.overallScore).toBe(first.body.score.overallScore);
    expectError(await outsider.client.get(`/api/projects/${projectId}/score`), 404, "NOT_FOUND");
    expectError(await member.client.post(`/api/projects/${projectId}/score`, {}), 403, "FORBIDDEN");
    expect((await member.client.get(`/api/projects/${projectId}/score`)).status).toBe(200);
  });
});

describe("PRD check", () => {
  it("checks the saved PRD against the template and unsaved text on POST", async () => {
    const saved = await owner.client.get(`/api/projects/${projectId}/prd/check`);
    expect(saved.status, saved.text).toBe(200);
    expect(saved.body.template).toEqual({ name: "Standard PRD" });
    expect(saved.body.check.sections.expected).toContain("Problem Statement");
    const draft = await owner.client.post(`/api/projects/${projectId}/prd/check`, {
      content: "# X\n\n## Goals\n- Make onboarding fast\n\nTODO: pricing",
    });
    const rules = draft.body.check.issues.map((i: { rule: string }) => i.rule);
    expect(rules).toEqual(expect.arrayContaining(["missing_section", "vague_word", "open_todo"]));
    expect(draft.body.check.sections.missing).toContain("Problem Statement");
  });
});
