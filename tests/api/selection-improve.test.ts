import { beforeAll, describe, expect, it } from "vitest";
import { ensureSystemTemplates } from "~/domain/templates/system.server";
import { signedUpClient } from "../support/client";
import { type Account, expectError, joinOrg, setPlan } from "../support/org";
import { expectSseStream } from "../support/sse";

/**
 * "AI on a selection" (docs/ai.md): the rich editor's panel sends the
 * selected text with the project's id to POST /api/ai/improve, as the
 * browser does (cookie session, same-origin). With no key anywhere the
 * offline drafter answers; every action streams and ends with `done`
 * holding the input's numbers.
 */

let owner: Account;
let member: Account;
let stranger: Account;
let projectId: string;

const SELECTION = "Cut no-shows from 18% to 9% within 6 months, and basically keep SMS opt-outs under 2% in order to protect the 14 clinics' lists.";
const LIST = "- Send an SMS reminder 48 hours before each appointment.\n- Release an unconfirmed slot to the waitlist after 24 hours.";
const HEADING = "## Goals for the 2027 pilot";

const numbers = (s: string) => s.match(/\d+(?:[.,]\d+)*/g) ?? [];

beforeAll(async () => {
  await ensureSystemTemplates();
  owner = await signedUpClient({ name: "Sel Owner" });
  await setPlan(owner.organization.id, "enterprise");
  member = await joinOrg(owner.organization.id, "member", "Max Member");
  stranger = await signedUpClient({ name: "Stan Stranger" });
  await setPlan(stranger.organization.id, "enterprise");
  const res = await owner.client.post("/api/projects", { name: "Dental reminders", templateId: "sys-standard-prd" });
  expect(res.status, res.text).toBe(201);
  projectId = res.body.id;
});

describe("POST /api/ai/improve on a selection", () => {
  const cases = [
    { label: "Improve", improvementType: "improve_writing" },
    { label: "Shorten", improvementType: "make_concise" },
    { label: "Expand", improvementType: "add_detail" },
    { label: "Make measurable", improvementType: "add_metrics" },
    { label: "Tell AI what to do", improvementType: "improve_writing", customPrompt: "Make it shorter" },
  ] as const;

  for (const c of cases) {
    it(`${c.label}: streams the rewrite and ends with done keeping every number`, async () => {
      for (const content of [SELECTION, LIST, HEADING]) {
        const res = await owner.client.post("/api/ai/improve", {
          content,
          improvementType: c.improvementType,
          customPrompt: "customPrompt" in c ? c.customPrompt : undefined,
          projectId,
        });
        const { events, last } = expectSseStream(res);
        expect(events.some((e) => e.type === "content")).toBe(true);
        expect(events[0]).toMatchObject({ type: "progress" });
        expect(last).toMatchObject({
          type: "done",
          improvementType: c.improvementType,
          model: "builtin",
          provider: "builtin",
          keySource: "builtin",
          truncated: false,
        });
        expect(typeof last.changed).toBe("boolean");
        for (const n of numbers(content)) expect(last.fullContent, `${c.label} keeps ${n}`).toContain(n);
        // The selection's own Markdown marker starts the suggestion.
        expect(last.fullContent.slice(0, 3)).toBe(content.slice(0, 3));
        if (c.improvementType === "make_concise") expect(last.fullContent.length).toBeLessThanOrEqual(content.length);
        if (c.improvementType === "add_detail" || c.improvementType === "add_metrics") {
          // Only adds: every line of the selection is there, as written and in order.
          const out: string[] = last.fullContent.split("\n");
          let at = 0;
          for (const line of content.split("\n")) {
            at = out.indexOf(line, at);
            expect(at, `${c.label} keeps "${line}"`).toBeGreaterThanOrEqual(0);
            at += 1;
          }
        }
      }
    });
  }

  it("Shorten cuts the filler of the selection and keeps its facts", async () => {
    const { last } = expectSseStream(await owner.client.post("/api/ai/improve", { content: SELECTION, improvementType: "make_concise", projectId }));
    expect(last.changed).toBe(true);
    expect(last.fullContent).toBe("Cut no-shows from 18% to 9% within 6 months, and basically keep SMS opt-outs under 2% to protect the 14 clinics' lists.");
  });

  it("an instruction the offline drafter cannot carry out returns the text unchanged with changed: false", async () => {
    const res = await owner.client.post("/api/ai/improve", {
      content: SELECTION,
      improvementType: "improve_writing",
      customPrompt: "Make it sound more persuasive",
      projectId,
    });
    const { last } = expectSseStream(res);
    expect(last).toMatchObject({ fullContent: SELECTION, changed: false, model: "builtin" });
  });

  it("an instruction it can carry out is done, and nothing about it is written into the text", async () => {
    const res = await owner.client.post("/api/ai/improve", {
      content: "Patients confirm teh slot by SMS.",
      improvementType: "improve_writing",
      customPrompt: "Fix the spelling",
      projectId,
    });
    const { last } = expectSseStream(res);
    expect(last).toMatchObject({ fullContent: "Patients confirm the slot by SMS.", changed: true });
  });

  it("saves nothing to the project", async () => {
    const res = await owner.client.get(`/api/projects/${projectId}/ai-outputs`);
    expect(res.status, res.text).toBe(200);
    expect(res.body.outputs).toEqual([]);
  });

  it("a stranger's project is not found; a member who may read but not edit it is refused", async () => {
    const body = { content: SELECTION, improvementType: "make_concise", projectId };
    expectError(await stranger.client.post("/api/ai/improve", body), 404, "NOT_FOUND");
    expectError(await member.client.post("/api/ai/improve", body), 403, "FORBIDDEN");
    expectError(await owner.client.post("/api/ai/improve", { ...body, projectId: "no-such-project" }), 404, "NOT_FOUND");
  });

  it("works from the browser with the session cookie alone: no CSRF token or API-Version header, but only from the app's origin", async () => {
    const body = { content: SELECTION, improvementType: "add_metrics", projectId };
    const sameOrigin = await owner.client.post("/api/ai/improve", body, { headers: { "Sec-Fetch-Site": "same-origin", Accept: "text/event-stream" } });
    expectSseStream(sameOrigin);
    expect(sameOrigin.headers.get("API-Version")).toBe("1");
    expectError(await owner.client.post("/api/ai/improve", body, { headers: { Origin: "https://evil.example" } }), 403, "CSRF_FAILED");
  });

  it("an empty selection is a validation error before any stream", async () => {
    const res = await owner.client.post("/api/ai/improve", { content: "   ", improvementType: "improve_writing", projectId });
    expectError(res, 400, "VALIDATION_ERROR");
    expect(res.body.details[0].path).toBe("content");
  });
});
