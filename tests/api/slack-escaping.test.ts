import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { buildMessage } from "~/domain/slack/messages.server";
import { registerBackgroundWork } from "~/jobs/handlers.server";
import { runDueJobs } from "~/jobs/worker.server";
import { createSlackMock, SLACK_API, SLACK_CLIENT } from "../mocks/slack";
import { type Account, joinOrg, setPlan } from "../support/org";
import { signedUpClient, type TestClient } from "../support/client";

/**
 * Slack messages carry names people typed: a project called `<!channel>` must
 * not ping the whole channel, nor `<@U123>` mention someone. Slack reads `<…>`
 * as its control sequences in `text` and in mrkdwn, so `&`, `<` and `>` are
 * escaped in both (Slack's "Formatting text for app surfaces").
 */

registerBackgroundWork();
const slack = createSlackMock();
const server = setupServer(...slack.handlers);
const ENV = { SLACK_CLIENT_ID: SLACK_CLIENT.id, SLACK_CLIENT_SECRET: SLACK_CLIENT.secret, SLACK_API_URL: SLACK_API };
const HOSTILE = "<!channel> & <@U123>";
const ESCAPED = "&lt;!channel&gt; &amp; &lt;@U123&gt;";

beforeAll(() => {
  Object.assign(process.env, ENV);
  resetConfigForTests();
  server.listen({ onUnhandledRequest: "error" });
});
afterAll(() => {
  server.close();
  for (const k of Object.keys(ENV)) delete process.env[k];
  resetConfigForTests();
});

async function connectSlack(client: TestClient) {
  const start = await client.post("/api/integrations/slack/connect");
  expect(start.status, start.text).toBe(200);
  const { code, state } = slack.authorize(start.body.url);
  const res = await client.get(`/api/integrations/slack/callback?code=${code}&state=${encodeURIComponent(state)}`);
  expect(res.status, res.text).toBe(302);
}

/** Everything Slack would read as a control sequence: `<!…>`, `<@…>`, `<#…>`, or a bare `&`/`<`/`>` outside our own links. */
const controls = (s: string) => [...s.matchAll(/<[!@#][^>]*>/g)].map((m) => m[0]);

let owner: Account;

beforeAll(async () => {
  owner = await signedUpClient({ name: "<!here> Hal" });
  await setPlan(owner.organization.id, "pro");
  await connectSlack(owner.client);
  const saved = await owner.client.call("PUT", "/api/integrations/slack", { json: { defaultChannelId: "C00CHAN" } });
  expect(saved.status, saved.text).toBe(200);
});

describe("names in Slack messages", () => {
  it("a project named `<!channel> & <@U123>` posts its name escaped, in the text fallback and in the blocks", async () => {
    const projectId = (await owner.client.post("/api/projects", { name: HOSTILE })).body.id as string;
    const before = slack.state.posted.length;
    expect((await owner.client.patch(`/api/projects/${projectId}/status`, { status: "IN_PROGRESS" })).status).toBe(200);
    await runDueJobs({ now: new Date(Date.now() + 1000) });
    const posted = slack.state.posted.slice(before);
    expect(posted).toHaveLength(1);
    const [m] = posted;
    expect(m!.text).toContain(`${ESCAPED}: moved to In progress (by &lt;!here&gt; Hal)`);
    expect(controls(m!.text)).toEqual([]);
    const blocks = JSON.stringify(m!.blocks);
    expect(blocks).toContain(`*${ESCAPED}*: moved to In progress`);
    expect(blocks).toContain("By &lt;!here&gt; Hal");
    expect(controls(blocks)).toEqual([]);
    // The link built by the app keeps its brackets.
    expect(blocks).toContain(`<http://localhost:3000/projects/${projectId}|Open the project>`);
  });

  it("a mention names people escaped too", async () => {
    const mia = await joinOrg(owner.organization.id, "member", "Mia <!everyone>");
    const projectId = (await owner.client.post("/api/projects", { name: "Plain" })).body.id as string;
    const before = slack.state.posted.length;
    const comment = await owner.client.post(`/api/projects/${projectId}/comments`, { content: `@${mia.email} look` });
    expect(comment.status, comment.text).toBe(201);
    await runDueJobs({ now: new Date(Date.now() + 1000) });
    const m = slack.state.posted.slice(before).find((p) => p.text.includes("mentioned"))!;
    expect(m.text).toContain("&lt;!here&gt; Hal mentioned Mia &lt;!everyone&gt; in a comment");
    expect(controls(m.text)).toEqual([]);
    expect(controls(JSON.stringify(m.blocks))).toEqual([]);
  });

  it("escapes every piece of user text of a message, and an ampersand once", () => {
    const m = buildMessage({ projectName: "R&D <b>", what: "review “a > b” was approved", who: "Ann & <@U1>", url: "https://app.test/p/1" });
    expect(m.text).toBe("R&amp;D &lt;b&gt;: review “a &gt; b” was approved (by Ann &amp; &lt;@U1&gt;) https://app.test/p/1");
    expect(JSON.stringify(m.blocks)).not.toMatch(/[^|]<@|<b>|&(?!amp;|lt;|gt;)/);
  });
});
