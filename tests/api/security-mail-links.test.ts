import http from "node:http";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { setEnv } from "../support/ai";
import { signedUpClient } from "../support/client";
import { serveApp } from "../support/serve";

/**
 * Finding 2: with APP_URL unset, links in mail followed the request's Host
 * header, so `forgot-password` with `Host: evil.example` mailed a reset link
 * to the attacker's server. Links come from configuration only.
 */

afterEach(() => setEnv({ APP_URL: "http://localhost:3000", PORT: undefined }));

// A real socket, where the request URL is built from the Host header as in production.
let app: Awaited<ReturnType<typeof serveApp>>;
beforeAll(async () => {
  app = await serveApp();
});
afterAll(() => app.close());

/** POSTs JSON with a forged Host header. */
function postWithHost(path: string, body: unknown, host: string) {
  const url = new URL(path, app.url);
  return new Promise<number>((resolve, reject) => {
    const req = http.request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: "POST",
        headers: { Host: host, "Content-Type": "application/json", "X-Forwarded-Host": host },
      },
      (res) => {
        res.resume();
        res.on("end", () => resolve(res.statusCode ?? 0));
      },
    );
    req.on("error", reject);
    req.end(JSON.stringify(body));
  });
}

async function resetLinkAfterForgedHost(email: string) {
  expect(await postWithHost("/api/auth/forgot-password", { email }, "evil.example")).toBe(200);
  const mail = await db
    .selectFrom("emails")
    .select("text")
    .where("toAddress", "=", email)
    .where("kind", "=", "reset_password")
    .orderBy("createdAt", "desc")
    .executeTakeFirstOrThrow();
  return mail.text.match(/https?:\/\/\S+reset-password\?token=\S+/)![0];
}

describe("links in mail", () => {
  it("use APP_URL whatever Host the request names", async () => {
    const { email } = await signedUpClient();
    setEnv({ APP_URL: "https://prd.example.com/" });
    const link = await resetLinkAfterForgedHost(email);
    expect(link.startsWith("https://prd.example.com/reset-password?token=")).toBe(true);
    expect(link).not.toContain("evil.example");
  });

  it("without APP_URL use http://localhost:PORT, never the request's host", async () => {
    const { email } = await signedUpClient();
    setEnv({ APP_URL: undefined, PORT: "4321" });
    const link = await resetLinkAfterForgedHost(email);
    expect(link.startsWith("http://localhost:4321/reset-password?token=")).toBe(true);
  });

  it("the OAuth redirect URI and invitation links ignore the Host header too", async () => {
    const owner = await signedUpClient();
    setEnv({ APP_URL: "https://prd.example.com" });
    const invited = await owner.client.post("/api/invitations", { email: "host-test@example.com", role: "member" }, { headers: { Host: "evil.example" } });
    expect(invited.status, invited.text).toBe(201);
    const mail = await db.selectFrom("emails").select("text").where("toAddress", "=", "host-test@example.com").executeTakeFirstOrThrow();
    expect(mail.text).toContain("https://prd.example.com/invite/");
    expect(mail.text).not.toContain("evil.example");
  });
});
