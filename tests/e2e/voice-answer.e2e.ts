import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launch } from "./browser";
import { Session, type ServerProcess, signedInPage, startServer } from "./server-process";

/**
 * Answering the builder by voice in a real browser (docs/projects.md, "The AI
 * builder"): Chromium's fake microphone records through MediaRecorder, the
 * recording goes to the page's action, the server sends it to OpenAI's audio
 * API through the official SDK, and the transcript lands in the answer box to
 * be checked before sending. OpenAI is a loopback stand-in that reads the
 * multipart upload as the real API does and refuses what it would refuse.
 */

interface Upload {
  model: string | null;
  format: string | null;
  type: string;
  size: number;
  auth: string | null;
}

const TRANSCRIPT = "Field technicians need the checklist to work offline in basements.";
let openai: http.Server;
const uploads: Upload[] = [];
let server: ServerProcess;
let browser: Browser;
let dataDir: string;
let session: Session;
let projectId: string;

function startOpenAI() {
  openai = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const send = (status: number, body: unknown) => {
      res.writeHead(status, { "Content-Type": "application/json" });
      res.end(JSON.stringify(body));
    };
    if (req.method !== "POST" || req.url !== "/v1/audio/transcriptions")
      return send(404, { error: { message: "Unknown path", type: "invalid_request_error" } });
    const form = await new Request("http://openai.invalid/", {
      method: "POST",
      headers: { "content-type": req.headers["content-type"] ?? "" },
      body: Buffer.concat(chunks),
    })
      .formData()
      .catch(() => null);
    const file = form?.get("file");
    if (!form || !(file instanceof File))
      return send(400, { error: { message: "Missing required parameter: 'file'.", type: "invalid_request_error", code: "missing_required_parameter" } });
    uploads.push({
      model: form.get("model") as string | null,
      format: form.get("response_format") as string | null,
      type: file.type,
      size: file.size,
      auth: req.headers.authorization ?? null,
    });
    send(200, { task: "transcribe", language: "english", duration: 3.2, text: TRANSCRIPT, segments: [] });
  });
  return new Promise<string>((resolve) => openai.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(openai.address() as AddressInfo).port}/v1`)));
}

async function ok(res: Promise<{ status: number; body: any }>, what: string) {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-e2e-voice-"));
  const base = await startOpenAI();
  const email = "voice-admin@example.com";
  const created = (await import("node:child_process")).spawnSync(process.execPath, ["build/admin-create.js", email, "Vera Voice"], {
    encoding: "utf8",
    env: { PATH: process.env.PATH!, HOME: dataDir, NODE_ENV: "production", DATA_DIR: dataDir, DEFAULT_PLAN: "enterprise" } as unknown as NodeJS.ProcessEnv,
  });
  const password = created.stdout.match(/Password \(shown once[^)]*\): (\S+)/)?.[1];
  if (!password) throw new Error(`no password in: ${created.stdout}${created.stderr}`);
  [server, browser] = await Promise.all([
    startServer(dataDir, { SUPERADMIN_EMAILS: email, OPENAI_BASE_URL: base }),
    launch(["--use-fake-ui-for-media-stream", "--use-fake-device-for-media-stream"]),
  ]);
  session = new Session(server.baseUrl, "10.78.0.1");
  await session.signIn(email, password);
  await ok(session.call("POST", "/api/feature-flags", { key: "transcription", description: "Audio transcription uploads", enabled: true }), "flag");
  await ok(session.call("POST", "/api/organization/ai-keys", { provider: "provider_a", key: "sk-voice-test-0123456789abcdef" }), "key");
  projectId = (await ok(session.call("POST", "/api/projects", { name: "Offline checklist" }), "project")).id;
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  await new Promise((r) => openai?.close(r));
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

describe("answering the builder by voice", () => {
  it("records from the microphone, transcribes through OpenAI and puts the text in the answer box, unsent", async () => {
    const { context, page, errors } = await signedInPage(browser, session, ["microphone"]);
    await page.goto(`/projects/${projectId}/builder`);
    const box = page.getByLabel(/Your answer|Anything to add/);
    await box.fill("Our users:");

    await page.getByRole("button", { name: "Record answer" }).click();
    const stop = page.getByRole("button", { name: "Stop recording" });
    await stop.waitFor();
    await page.waitForTimeout(1500);
    await stop.click();

    await expect.poll(() => box.inputValue(), { timeout: 20_000 }).toContain(TRANSCRIPT);
    // Added after what was typed, never sent: no answer bubble appears.
    expect(await box.inputValue()).toMatch(/^Our users:\s+Field technicians/);
    expect(await page.locator(".chat .bubble.user").count()).toBe(0);

    expect(uploads).toHaveLength(1);
    expect(uploads[0]).toMatchObject({ model: "whisper-1", format: "verbose_json", auth: "Bearer sk-voice-test-0123456789abcdef" });
    expect(uploads[0]!.type).toMatch(/^audio\/(webm|ogg|mp4)/);
    expect(uploads[0]!.size).toBeGreaterThan(1000);

    expect(errors).toEqual([]);
    await context.close();
  }, 90_000);
});
