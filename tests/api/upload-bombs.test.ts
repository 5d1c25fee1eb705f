import { unzipSync, zipSync } from "fflate";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { parseBounds } from "~/domain/uploads/parse-bounds.server";
import { type Deflated, bigPng, deflatedFiller, docxWithPart, pdfWithContent } from "../fixtures/bombs";
import { makeDocx, makePdf } from "../fixtures/documents";
import { ORIGIN, signedUpClient, type TestClient } from "../support/client";
import { type Account, expectError, setPlan } from "../support/org";
import { pageText } from "../support/page";

/**
 * Decompression bombs (docs/security.md): documents and images that are
 * small on the wire and enormous once expanded are refused with 413 before
 * they are expanded, or as soon as reading them passes a bound, with the
 * server's memory staying flat. Normal documents still import.
 */

const MB = 1024 * 1024;
/** RSS growth allowed while a bomb is refused. Without the bounds these files take the process up by 0.9–1.3 GB. */
const FLAT_MB = 250;

const ns = 'xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"';
const XML_HEAD = `<?xml version="1.0" encoding="UTF-8" standalone="yes"?><w:document ${ns}><w:body><w:p><w:r><w:t>Quarterly plan</w:t></w:r></w:p>`;
const XML_TAIL = "</w:body></w:document>";

let owner: Account;
let baseDocx: Buffer;
/** word/document.xml of 400 MB (spaces between elements: valid XML), compressed to ~410 KB. */
let documentXml: Deflated;
/** A PDF content stream of 400 MB (a text operator, then spaces), compressed to ~410 KB. */
let contentStream: Deflated;

const defaults = { ...parseBounds };
afterEach(() => Object.assign(parseBounds, defaults));

beforeAll(async () => {
  owner = await signedUpClient({ name: "Bea Bomb" });
  await setPlan(owner.organization.id, "pro");
  baseDocx = await makeDocx("<h1>Quarterly plan</h1><p>Users must sign in with SSO.</p>");
  documentXml = await deflatedFiller(XML_HEAD, 400, XML_TAIL);
  contentStream = await deflatedFiller("BT /F1 12 Tf 72 720 Td (Quarterly plan) Tj ET\n", 400);
}, 60_000);

function send(client: TestClient, path: string, file: { bytes: Uint8Array; name: string }, fields: Record<string, string> = {}) {
  const fd = new FormData();
  fd.append("file", new File([file.bytes as BlobPart], file.name));
  for (const [k, v] of Object.entries(fields)) fd.append(k, v);
  return client.call("POST", path, { body: fd });
}

/** The request's result and how far RSS rose above where it started while it ran (sampled, and once at the end). */
async function rssGrowth<T>(work: () => Promise<T>) {
  const before = process.memoryUsage().rss;
  let peak = before;
  const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  try {
    const result = await work();
    peak = Math.max(peak, process.memoryUsage().rss);
    return { result, growthMb: (peak - before) / MB };
  } finally {
    clearInterval(sample);
  }
}

const usage = async () =>
  Number(
    (
      await db
        .selectFrom("uploadUsage")
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .where("orgId", "=", owner.organization.id)
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("POST /api/upload/document: decompression bombs", () => {
  it("refuses a 410 KB DOCX that expands to 400 MB (413), memory flat, nothing counted; a normal DOCX still imports", async () => {
    const bomb = docxWithPart(baseDocx, "word/document.xml", documentXml);
    expect(bomb.byteLength).toBeLessThan(600 * 1024);
    const before = await usage();
    const { result: res, growthMb } = await rssGrowth(() => send(owner.client, "/api/upload/document", { bytes: bomb, name: "plan.docx" }));
    expectError(res, 413, "PAYLOAD_TOO_LARGE");
    expect(res.body.error).toContain("expands to more than 50 MB");
    expect(growthMb).toBeLessThan(FLAT_MB);
    expect(await usage()).toBe(before);

    const normal = await send(owner.client, "/api/upload/document", { bytes: baseDocx, name: "plan.docx" });
    expect(normal.status, normal.text).toBe(200);
    expect(normal.body).toMatchObject({ type: "docx", truncated: false });
    expect(normal.body.text).toContain("# Quarterly plan");
    expect(normal.body.text).toContain("Users must sign in with SSO.");
    expect(await usage()).toBe(before + 1);
  });

  it("refuses a DOCX from its zip directory alone: declared sizes over 50 MB, or over 2,000 parts (413)", async () => {
    // The directory claims 400 MB for a part whose data is a few hundred bytes.
    const small = await deflatedFiller(`${XML_HEAD}${XML_TAIL}`, 0);
    const claims = docxWithPart(baseDocx, "word/document.xml", small, 400 * MB);
    const res = await send(owner.client, "/api/upload/document", { bytes: claims, name: "plan.docx" });
    expectError(res, 413, "PAYLOAD_TOO_LARGE");
    expect(res.body.error).toContain("expands to more than 50 MB");

    const parts = Object.fromEntries(Array.from({ length: 2_001 }, (_, i) => [`word/media/part${i}.xml`, new Uint8Array([0x20])]));
    const many = zipSync({ ...unzipSync(baseDocx), ...parts });
    const crowded = await send(owner.client, "/api/upload/document", { bytes: many, name: "plan.docx" });
    expectError(crowded, 413, "PAYLOAD_TOO_LARGE");
    expect(crowded.body.error).toContain("more than 2,000 parts");
  });

  it("refuses a DOCX whose zip directory lies about its sizes, while inflating (413), memory flat", async () => {
    // The directory (and the entry's data descriptor) claim 4 KB; the DEFLATE data holds 400 MB.
    const liar = docxWithPart(baseDocx, "word/document.xml", documentXml, 4000);
    const { result: res, growthMb } = await rssGrowth(() => send(owner.client, "/api/upload/document", { bytes: liar, name: "plan.docx" }));
    expectError(res, 413, "PAYLOAD_TOO_LARGE");
    expect(res.body.error).toContain("expands to more than 50 MB");
    expect(growthMb).toBeLessThan(FLAT_MB);
  });

  it("refuses a PDF whose FlateDecode content stream expands to 400 MB (413), memory flat; a normal PDF still imports", async () => {
    const bomb = pdfWithContent(contentStream.zlib, ["FlateDecode"]);
    const { result: res, growthMb } = await rssGrowth(() => send(owner.client, "/api/upload/document", { bytes: bomb, name: "plan.pdf" }));
    expectError(res, 413, "PAYLOAD_TOO_LARGE");
    expect(res.body.error).toContain("expands to more than 50 MB");
    expect(growthMb).toBeLessThan(FLAT_MB);

    const normal = await send(owner.client, "/api/upload/document", {
      bytes: await makePdf([["Quarterly plan", "The system must support guest checkout."]]),
      name: "plan.pdf",
    });
    expect(normal.status, normal.text).toBe(200);
    expect(normal.body).toMatchObject({ type: "pdf", pages: 1 });
    expect(normal.body.text).toContain("guest checkout");
  });

  it("stops the parse worker at its buffer bound when the pre-check cannot see the bomb (ASCIIHex around Flate)", async () => {
    const hex = Buffer.from(`${contentStream.zlib.toString("hex")}>`, "latin1");
    const bomb = pdfWithContent(hex, ["ASCIIHexDecode", "FlateDecode"]);
    const { result: res, growthMb } = await rssGrowth(() => send(owner.client, "/api/upload/document", { bytes: bomb, name: "plan.pdf" }));
    expectError(res, 413, "PAYLOAD_TOO_LARGE");
    expect(res.body.error).toContain(`needed more than ${parseBounds.bufferMb} MB of memory`);
    expect(growthMb).toBeLessThan(FLAT_MB);
  });

  it("stops the parse worker at its heap bound (413)", async () => {
    // 2 MB of real paragraphs: mammoth builds about 60 times that in JS objects.
    const paragraphs = Array.from({ length: 20_000 }, (_, i) => `<w:p><w:r><w:t>Requirement ${i}: checkout must work for guests.</w:t></w:r></w:p>`);
    const long = docxWithPart(baseDocx, "word/document.xml", await deflatedFiller(XML_HEAD + paragraphs.join(""), 0, XML_TAIL));
    parseBounds.heapMb = 32;
    const res = await send(owner.client, "/api/upload/document", { bytes: long, name: "plan.docx" });
    expectError(res, 413, "PAYLOAD_TOO_LARGE");
    expect(res.body.error).toContain("needed more than 32 MB of memory");
  });

  it("terminates a parse that runs past the time bound (413)", async () => {
    parseBounds.timeoutMs = 1;
    const res = await send(owner.client, "/api/upload/document", { bytes: await makePdf([["Quarterly plan"]]), name: "plan.pdf" });
    expectError(res, 413, "PAYLOAD_TOO_LARGE");
    expect(res.body.error).toContain("took longer than 1 ms");
  });
});

describe("/projects/new from a document: a bomb creates nothing", () => {
  it("answers 413 in the form and leaves no project, PRD or file behind", async () => {
    const count = async (table: "projects" | "prdVersions" | "projectFiles") =>
      Number(
        (
          await db
            .selectFrom(table)
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const rows = async () => ({ projects: await count("projects"), prds: await count("prdVersions"), files: await count("projectFiles") });
    const before = await rows();
    const fd = new FormData();
    fd.append("intent", "from-document");
    fd.append("file", new File([docxWithPart(baseDocx, "word/document.xml", documentXml, 4000) as BlobPart], "plan.docx"));
    const res = await owner.client.call("POST", "/projects/new", { body: fd, headers: { Host: new URL(ORIGIN).host } });
    expect(res.status).toBe(413);
    expect(pageText(res)).toContain("expands to more than 50 MB");
    expect(await rows()).toEqual(before);
  });
});

describe("images: a bound on declared pixels", () => {
  // 7000 × 7000 = 49 megapixels of grey in a 50 KB PNG.
  const png = bigPng(7000, 7000);

  it("refuses a project image over 40 megapixels with 413 and stores nothing", async () => {
    const projectId = (await owner.client.post("/api/projects", { name: "Pixels" })).body.id as string;
    const count = async () =>
      Number(
        (
          await db
            .selectFrom("uploadedImages")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const res = await send(owner.client, "/api/upload/image", { bytes: png, name: "huge.png" }, { projectId });
    expectError(res, 413, "PAYLOAD_TOO_LARGE");
    expect(res.body.error).toContain("larger than 40 megapixels");
    expect(await count()).toBe(before);
    const fine = await send(owner.client, "/api/upload/image", { bytes: bigPng(2000, 1500), name: "fine.png" }, { projectId });
    expect(fine.status, fine.text).toBe(201);
  });

  it("refuses a logo over 40 megapixels with 413", async () => {
    const res = await send(owner.client, "/api/organization/branding/logo", { bytes: png, name: "logo.png" });
    expectError(res, 413, "PAYLOAD_TOO_LARGE");
    expect(res.body.error).toContain("larger than 40 megapixels");
    expect((await owner.client.get("/api/organization/branding")).body.branding.logoUrl).toBeNull();
  });
});
