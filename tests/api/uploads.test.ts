import sharp from "sharp";
import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { setFlagResolver } from "~/domain/flags/flags.server";
import { createOpenAIAudioMock } from "../mocks/openai-audio";
import { aiMocks, resetAiMocks, setupAiMockServer } from "../mocks/server";
import { elfBytes, makeDocx, makeJpegWithExif, makePdf, makePng, makeWav, mzBytes } from "../fixtures/documents";
import { remixHandler } from "../support/build";
import { signedUpClient, type TestClient } from "../support/client";
import { type Account, expectError, joinOrg, setPlan } from "../support/org";

const server = setupAiMockServer();
const audio = createOpenAIAudioMock();
let transcriptionOn = true;
beforeAll(() => {
  server.listen();
  server.use(audio.handler);
  return () => server.close();
});
afterEach(() => {
  resetAiMocks();
  audio.reset();
});
// The flags helper makes `transcription` default off; these tests decide it themselves.
beforeEach(() => {
  transcriptionOn = true;
  setFlagResolver((_actor, key) => key !== "transcription" || transcriptionOn);
});

function send(
  client: TestClient,
  path: string,
  file: { bytes: Uint8Array | string; name: string; type?: string } | null,
  fields: Record<string, string> = {},
  key?: string,
) {
  const fd = new FormData();
  if (file) fd.append("file", new File([file.bytes as BlobPart], file.name, file.type ? { type: file.type } : {}));
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return client.call("POST", path, { body: fd, key });
}

async function bytesOf(client: TestClient, path: string, headers: Record<string, string> = {}) {
  const h = new Headers({ ...headers, Cookie: [...client.jar].map(([k, v]) => `${k}=${v}`).join("; ") });
  const res = await remixHandler()(new Request(`http://localhost:3000${path}`, { headers: h }), { ip: client.ip });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}

const usage = async (orgId: string, metric: string) =>
  Number(
    (
      await db
        .selectFrom("uploadUsage")
        .select((eb) => eb.fn.coalesce(eb.fn.sum<number>("amount"), eb.val(0)).as("n"))
        .where("orgId", "=", orgId)
        .where("metric", "=", metric as "document_uploads")
        .executeTakeFirstOrThrow()
    ).n,
  );

let owner: Account;
beforeAll(async () => {
  owner = await signedUpClient({ name: "Uma Uploader" });
  await setPlan(owner.organization.id, "pro");
});

describe("POST /api/upload/document", () => {
  it("reads a PDF by its content (even named .txt) and analyses it offline", async () => {
    const pdf = await makePdf([
      ["Checkout Revamp", "The system must support guest checkout for every user.", "Who approves refunds over 500 euros?"],
      ["Payments", "Card payments should settle within two days."],
    ]);
    const res = await send(owner.client, "/api/upload/document", { bytes: pdf, name: "notes.txt", type: "text/plain" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ filename: "notes.txt", type: "pdf", truncated: false, pages: 2 });
    expect(res.body.text).toContain("guest checkout");
    expect(res.body.text).toContain("settle within two days");
    const a = res.body.analysis;
    expect(a.model).toBe("builtin");
    expect(a.requirements).toEqual(
      expect.arrayContaining(["The system must support guest checkout for every user.", "Card payments should settle within two days."]),
    );
    expect(a.questions).toContain("Who approves refunds over 500 euros?");
    expect(a.wordCount).toBeGreaterThan(15);
    expect(a.summary).toContain("guest checkout");
    expect(await usage(owner.organization.id, "document_uploads")).toBe(1);
  });

  it("reads DOCX headings and Markdown/plain text; Markdown by name or structure", async () => {
    const docx = await makeDocx("<h1>Mobile App</h1><p>Users must sign in with SSO.</p><h2>Goals</h2><ul><li>We should reduce churn by 10%.</li></ul>");
    const d = await send(owner.client, "/api/upload/document", { bytes: docx, name: "brief.bin", type: "application/octet-stream" });
    expect(d.status, d.text).toBe(200);
    expect(d.body.type).toBe("docx");
    expect(d.body.text).toContain("# Mobile App");
    expect(d.body.analysis.title).toBe("Mobile App");
    expect(d.body.analysis.sections.map((s: { title: string }) => s.title)).toContain("Goals");
    expect(d.body.analysis.requirements).toEqual(expect.arrayContaining(["Users must sign in with SSO.", "We should reduce churn by 10%."]));

    const md = await send(owner.client, "/api/upload/document", { bytes: "# Search\n\n## Scope\nResults will load in 200 ms.", name: "x.txt" });
    expect(md.body.type).toBe("md");
    expect(md.body.analysis.sections[0]).toEqual({ title: "Scope", summary: "Results will load in 200 ms." });
    const txt = await send(owner.client, "/api/upload/document", { bytes: "Plain words only. Nothing else here.", name: "plain.txt" });
    expect(txt.body.type).toBe("txt");
    const byName = await send(owner.client, "/api/upload/document", { bytes: "Plain words only. Nothing else.", name: "readme.md" });
    expect(byName.body.type).toBe("md");
  });

  it("refuses executables, images and binaries whatever their name (415), and counts nothing", async () => {
    const before = await usage(owner.organization.id, "document_uploads");
    for (const file of [
      { bytes: elfBytes(), name: "notes.txt" },
      { bytes: mzBytes(), name: "picture.png" },
      { bytes: await makePng(4, 4), name: "doc.md" },
      { bytes: Buffer.from([0x41, 0x42, 0, 0x43, 0xff, 0xfe]), name: "data.txt" },
      { bytes: "%PDF-1.7 but not really a pdf", name: "fake.pdf" },
      { bytes: "", name: "empty.txt" },
    ]) {
      const res = await send(owner.client, "/api/upload/document", file);
      expectError(res, 415, "UNSUPPORTED_MEDIA_TYPE");
    }
    expect(await usage(owner.organization.id, "document_uploads")).toBe(before);
  });

  it("refuses over 10 MB with 413, a missing file with 400 and a JSON body with 415", async () => {
    const big = Buffer.alloc(10 * 1024 * 1024 + 1, 0x61);
    expectError(await send(owner.client, "/api/upload/document", { bytes: big, name: "big.txt" }), 413, "PAYLOAD_TOO_LARGE");
    expectError(await send(owner.client, "/api/upload/document", null, { note: "no file" }), 400, "VALIDATION_ERROR");
    expectError(await owner.client.post("/api/upload/document", { text: "hi" }), 415, "UNSUPPORTED_MEDIA_TYPE");
    const anon = await send(new (owner.client.constructor as typeof TestClient)(), "/api/upload/document", { bytes: "hi there", name: "a.txt" });
    expectError(anon, 401, "UNAUTHORIZED");
  });

  it("cuts text beyond 200,000 characters and says so", async () => {
    const long = "The service must stay fast. ".repeat(8000);
    const res = await send(owner.client, "/api/upload/document", { bytes: long, name: "long.txt" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.truncated).toBe(true);
    expect(res.body.text.length).toBe(200_000);
  });

  it("stops at the plan's monthly document_uploads limit with 403 LIMIT_REACHED", async () => {
    const free = await signedUpClient({ name: "Fay Free" });
    const rows = Array.from({ length: 10 }, (_, i) => ({
      id: `seed-${free.organization.id}-${i}`,
      orgId: free.organization.id,
      userId: free.user.id,
      metric: "document_uploads" as const,
      amount: 1,
      label: "seed.txt",
      createdAt: new Date().toISOString(),
    }));
    await db.insertInto("uploadUsage").values(rows.slice(0, 9)).execute();
    const ninth = await send(free.client, "/api/upload/document", { bytes: "Tenth document here. It is fine.", name: "ten.txt" });
    expect(ninth.status, ninth.text).toBe(200);
    const over = await send(free.client, "/api/upload/document", { bytes: "One too many documents. Refused.", name: "eleven.txt" });
    expectError(over, 403, "LIMIT_REACHED");
    expect(over.body.metric).toBe("document_uploads");
    // Last month's uploads do not count.
    await db.updateTable("uploadUsage").set({ createdAt: "2000-01-01T00:00:00.000Z" }).where("orgId", "=", free.organization.id).execute();
    expect((await send(free.client, "/api/upload/document", { bytes: "New month, new quota. Fine.", name: "m.txt" })).status).toBe(200);
  });

  it("uses the caller's AI provider for the analysis when a key applies", async () => {
    const keyed = await signedUpClient({ name: "Kai Keyed" });
    await setPlan(keyed.organization.id, "pro");
    expect((await keyed.client.post("/api/organization/ai-keys", { provider: "provider_a", key: "sk-org-uploads-aaaaaaaaaaaa" })).status).toBe(201);
    aiMocks.openai.queue({
      kind: "json",
      value: { title: "Doc", summary: "A provider summary.", sections: [], requirements: ["It must work."], questions: [] },
    });
    const res = await send(keyed.client, "/api/upload/document", { bytes: "It must work. Really it must.", name: "p.txt" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.analysis).toMatchObject({ summary: "A provider summary.", provider: "provider_a", requirements: ["It must work."] });
    expect(aiMocks.openai.requests.at(-1)!.body.messages.at(-1).content).toContain("It must work.");
    aiMocks.openai.queue({ kind: "http_error", status: 500 });
    expectError(await send(keyed.client, "/api/upload/document", { bytes: "Will fail upstream. Sadly.", name: "f.txt" }), 502, "PROVIDER_ERROR");
  });
});

describe("POST /api/upload/image and GET /api/uploads/images/{id}", () => {
  let projectId: string;
  beforeAll(async () => {
    projectId = (await owner.client.post("/api/projects", { name: "Images" })).body.id;
  });

  it("re-encodes (upright, no metadata), stores, and serves to project readers only", async () => {
    const jpeg = await makeJpegWithExif(40, 20);
    expect((await sharp(jpeg).metadata()).exif).toBeDefined();
    const res = await send(owner.client, "/api/upload/image", { bytes: jpeg, name: "photo.png", type: "image/png" }, { projectId });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ contentType: "image/webp", width: 20, height: 40 });
    expect(res.body.url).toMatch(/^\/api\/uploads\/images\/[\w-]+$/);
    expect(res.headers.get("Location")).toBe(res.body.url);

    const got = await bytesOf(owner.client, res.body.url);
    expect(got.status).toBe(200);
    expect(got.headers.get("Content-Type")).toBe("image/webp");
    expect(got.headers.get("Cache-Control")).toBe("private, max-age=31536000, immutable");
    expect(got.headers.get("X-Content-Type-Options")).toBe("nosniff");
    const meta = await sharp(got.bytes).metadata();
    expect(meta).toMatchObject({ format: "webp", width: 20, height: 40 });
    expect(meta.exif).toBeUndefined();
    expect(got.bytes.includes(Buffer.from("FixtureCam"))).toBe(false);
    const again = await bytesOf(owner.client, res.body.url, { "If-None-Match": got.headers.get("ETag")! });
    expect(again.status).toBe(304);

    // A member of the org can read the project; an outsider gets 404.
    const member = await joinOrg(owner.organization.id, "member", "Mo Member");
    expect((await bytesOf(member.client, res.body.url)).status).toBe(200);
    const outsider = await signedUpClient({ name: "Otto Outsider" });
    expect((await bytesOf(outsider.client, res.body.url)).status).toBe(404);
    expect((await bytesOf(owner.client, "/api/uploads/images/nope")).status).toBe(404);

    // Deleting the project removes the image and its bytes.
    const blobs = async () =>
      Number(
        (
          await db
            .selectFrom("blobs")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const temp = (await owner.client.post("/api/projects", { name: "Temp" })).body.id;
    const before = await blobs();
    const tmpImg = await send(owner.client, "/api/upload/image", { bytes: await makePng(10, 10), name: "a.png" }, { projectId: temp });
    expect(tmpImg.body.contentType).toBe("image/png");
    expect(await blobs()).toBe(before + 1);
    expect((await owner.client.delete(`/api/projects/${temp}`)).status).toBe(200);
    expect(await blobs()).toBe(before);
    expect((await bytesOf(owner.client, tmpImg.body.url)).status).toBe(404);
  });

  it("caps dimensions at 4096 px and refuses disguised or broken files with 415", async () => {
    const wide = await makePng(5000, 10);
    const res = await send(owner.client, "/api/upload/image", { bytes: wide, name: "wide.png" }, { projectId });
    expect(res.status, res.text).toBe(201);
    expect(res.body).toMatchObject({ width: 4096, contentType: "image/png" });
    expectError(
      await send(owner.client, "/api/upload/image", { bytes: elfBytes(), name: "x.png", type: "image/png" }, { projectId }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
    const broken = Buffer.concat([(await makePng(50, 50)).subarray(0, 60), Buffer.alloc(40, 1)]);
    expectError(await send(owner.client, "/api/upload/image", { bytes: broken, name: "b.png" }, { projectId }), 415, "UNSUPPORTED_MEDIA_TYPE");
    const svg = '<svg xmlns="http://www.w3.org/2000/svg" width="4" height="4"></svg>';
    expectError(
      await send(owner.client, "/api/upload/image", { bytes: svg, name: "a.svg", type: "image/svg+xml" }, { projectId }),
      415,
      "UNSUPPORTED_MEDIA_TYPE",
    );
  });

  it("needs edit access, a projectId and at most 5 MB", async () => {
    const png = await makePng(4, 4);
    const member = await joinOrg(owner.organization.id, "member", "Reed Reader");
    expectError(await send(member.client, "/api/upload/image", { bytes: png, name: "a.png" }, { projectId }), 403, "FORBIDDEN");
    const outsider = await signedUpClient({ name: "Nia Nobody" });
    expectError(await send(outsider.client, "/api/upload/image", { bytes: png, name: "a.png" }, { projectId }), 404, "NOT_FOUND");
    expectError(await send(owner.client, "/api/upload/image", { bytes: png, name: "a.png" }), 400, "VALIDATION_ERROR");
    const big = Buffer.alloc(5 * 1024 * 1024 + 1, 1);
    expectError(await send(owner.client, "/api/upload/image", { bytes: big, name: "big.png" }, { projectId }), 413, "PAYLOAD_TOO_LARGE");
  });
});

describe("POST /api/upload/transcribe", () => {
  const wav = () => ({ bytes: makeWav(1), name: "memo.wav", type: "audio/wav" });

  it("transcribes through OpenAI with the caller's key and meters ceil(duration/60) minutes", async () => {
    const t = await signedUpClient({ name: "Tia Talker" });
    await setPlan(t.organization.id, "starter");
    expect((await t.client.post("/api/user/api-keys", { provider: "provider_a", key: "sk-personal-audio-cccccccccccc" })).status).toBe(201);
    audio.next({ text: "We must ship the beta in May.", duration: 61.2 });
    const res = await send(t.client, "/api/upload/transcribe", { ...wav(), name: "memo.mp3", type: "audio/mpeg" });
    expect(res.status, res.text).toBe(200);
    expect(res.body).toMatchObject({ text: "We must ship the beta in May.", duration: 61.2, minutes: 2, language: "english" });
    const sent = audio.requests.at(-1)!;
    expect(sent).toMatchObject({ model: "whisper-1", responseFormat: "verbose_json", filename: "audio.wav", fileSize: makeWav(1).length });
    expect(sent.headers.authorization).toBe("Bearer sk-personal-audio-cccccccccccc");
    expect(await usage(t.organization.id, "transcription_minutes")).toBe(2);

    // 58 minutes left of 60: one more minute is allowed, then the quota is spent.
    await db
      .insertInto("uploadUsage")
      .values({
        id: `seed-${t.organization.id}`,
        orgId: t.organization.id,
        userId: t.user.id,
        metric: "transcription_minutes",
        amount: 58,
        label: "seed",
        createdAt: new Date().toISOString(),
      })
      .execute();
    const count = audio.requests.length;
    const over = await send(t.client, "/api/upload/transcribe", wav());
    expectError(over, 403, "LIMIT_REACHED");
    expect(over.body.metric).toBe("transcription_minutes");
    expect(audio.requests.length).toBe(count);
  });

  it("refuses non-audio (415), no key (409), the Free plan (403), the flag off (403) and provider failures (502)", async () => {
    const t = await signedUpClient({ name: "Pat Plain" });
    await setPlan(t.organization.id, "pro");
    const noKey = await send(t.client, "/api/upload/transcribe", wav());
    expectError(noKey, 409, "CONFLICT");
    expect(noKey.body.error).toMatch(/needs an OpenAI API key/);
    expect(noKey.body.error).not.toContain("provider_");

    expect((await t.client.post("/api/organization/ai-keys", { provider: "provider_a", key: "sk-org-audio-dddddddddddddd" })).status).toBe(201);
    expectError(await send(t.client, "/api/upload/transcribe", { bytes: elfBytes(), name: "a.mp3", type: "audio/mpeg" }), 415, "UNSUPPORTED_MEDIA_TYPE");
    expectError(await send(t.client, "/api/upload/transcribe", { bytes: await makePdf([["Not audio"]]), name: "a.wav" }), 415, "UNSUPPORTED_MEDIA_TYPE");
    expect(audio.requests.length).toBe(0);

    audio.fail(401);
    const refused = await send(t.client, "/api/upload/transcribe", wav());
    expectError(refused, 502, "PROVIDER_ERROR");
    expect(refused.text).not.toContain("sk-org-audio-dddddddddddddd");
    audio.fail(500);
    expectError(await send(t.client, "/api/upload/transcribe", wav()), 502, "PROVIDER_ERROR");
    expect(await usage(t.organization.id, "transcription_minutes")).toBe(0);

    const big = Buffer.alloc(25 * 1024 * 1024 + 1, 0);
    audio.reset();
    expectError(await send(t.client, "/api/upload/transcribe", { bytes: big, name: "big.wav" }), 413, "PAYLOAD_TOO_LARGE");

    transcriptionOn = false;
    expectError(await send(t.client, "/api/upload/transcribe", wav()), 403, "FEATURE_DISABLED");
    transcriptionOn = true;

    await setPlan(t.organization.id, "free");
    const free = await send(t.client, "/api/upload/transcribe", wav());
    expectError(free, 403, "LIMIT_REACHED");
    expect(audio.requests.length).toBe(0);
  });
});

describe("GET /api/integrations/status", () => {
  it("reports notes, wiki and docs as not connected, to signed-in callers only", async () => {
    const res = await owner.client.get("/api/integrations/status");
    expect(res.status, res.text).toBe(200);
    expect(res.body).toEqual({
      integrations: {
        notes: { connected: false, workspaceName: null, connectedAt: null },
        wiki: { connected: false, workspaceName: null, connectedAt: null },
        docs: { connected: false, workspaceName: null, connectedAt: null },
      },
    });
    expectError(await owner.client.get("/api/integrations/status", { cookies: false }), 401, "UNAUTHORIZED");
  });

  it("lists the upload contracts in the OpenAPI document", async () => {
    const doc = (await owner.client.get("/api/openapi.json")).body;
    for (const path of ["/api/upload/document", "/api/upload/image", "/api/upload/transcribe", "/api/uploads/images/{imageId}", "/api/integrations/status"]) {
      expect(Object.keys(doc.paths)).toContain(path);
    }
  });
});
