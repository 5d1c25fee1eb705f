import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { redactPath, setLogLevel, setLogSink } from "~/utils/log.server";
import { signedUpClient } from "../support/client";
import { serveApp } from "../support/serve";

/**
 * Finding 7: share, invitation and incoming-webhook tokens travel in paths.
 * Whoever reads the logs must not be able to use them.
 */

const lines: string[] = [];
let app: Awaited<ReturnType<typeof serveApp>>;
beforeAll(async () => {
  setLogSink((line) => lines.push(line));
  setLogLevel("info");
  app = await serveApp();
});
afterAll(async () => {
  setLogSink();
  setLogLevel();
  await app.close();
});

describe("bearer tokens in the access log", () => {
  it("never writes a share, invitation or incoming-webhook token, nor a reset token from a query", async () => {
    const owner = await signedUpClient({ name: "Logan Logs" });
    await owner.client.post("/api/projects", { name: "Logged" });
    const projectId = (await owner.client.get("/api/projects")).body.projects[0].id as string;
    const share = await owner.client.post(`/api/projects/${projectId}/share`, {});
    expect(share.status, share.text).toBeLessThan(300);
    const shareToken = (share.body.shareToken ?? share.body.share?.shareToken) as string;
    const invitation = await owner.client.post("/api/invitations", { email: "logged-invitee@example.com", role: "member" });
    const link = (await owner.client.get(`/api/invitations/${invitation.body.invitation.id}/link`)).body.url as string;
    const inviteToken = link.split("/invite/")[1]!;
    const hook = await owner.client.post("/api/admin/incoming-webhooks", { name: "CRM", action: "create_project" });
    const hookToken = hook.body.incomingWebhook.token as string;
    const tokens = [shareToken, inviteToken, hookToken, "reset-secret-123456"];
    expect(tokens.every((t) => typeof t === "string" && t.length > 10)).toBe(true);

    lines.length = 0;
    const visits = [
      fetch(`${app.url}/share/${shareToken}`),
      fetch(`${app.url}/share/${shareToken}.data`),
      fetch(`${app.url}/invite/${inviteToken}`),
      fetch(`${app.url}/api/webhooks/incoming/${hookToken}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: '{"name":"From CRM"}' }),
      fetch(`${app.url}/api/webhooks/incoming/${hookToken}x`, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }),
      fetch(`${app.url}/reset-password?token=reset-secret-123456`),
    ];
    for (const res of await Promise.all(visits)) await res.text();
    await expect.poll(() => lines.filter((l) => l.includes('"msg":"request"')).length).toBeGreaterThanOrEqual(visits.length);

    const log = lines.join("\n");
    for (const token of tokens) expect(log).not.toContain(token);
    const paths = lines.filter((l) => l.includes('"msg":"request"')).map((l) => JSON.parse(l).path as string);
    expect(paths).toEqual(expect.arrayContaining(["/share/:token", "/share/:token", "/invite/:token", "/api/webhooks/incoming/:token", "/reset-password"]));
  });

  it("redacts only the secret segment", () => {
    expect(redactPath("/share/abc123/review")).toBe("/share/:token/review");
    expect(redactPath("/invite/tok.data")).toBe("/invite/:token");
    expect(redactPath("/api/projects/p1")).toBe("/api/projects/p1");
    expect(redactPath("/sharepoint/x")).toBe("/sharepoint/x");
  });
});
