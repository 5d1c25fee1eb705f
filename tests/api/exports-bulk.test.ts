import zlib from "node:zlib";
import { unzipSync } from "fflate";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { setFlagResolver } from "~/domain/flags/flags.server";
import { signedUpClient } from "../support/client";
import { type Account, expectError, joinOrg, setPlan } from "../support/org";
import { eventsNamed, newProjectWithPrd, pdfText, rawCall, rawPost } from "./exports-support";

// Renderers work as written; a test can make the n-th next call throw.
const failing = vi.hoisted(() => ({ countdown: 0, calls: 0 }));
vi.mock("~/domain/exports/files.server", async (importOriginal) => {
  const real = await importOriginal<typeof import("~/domain/exports/files.server")>();
  return {
    ...real,
    renderExport: async (...args: Parameters<typeof real.renderExport>) => {
      failing.calls++;
      if (failing.countdown > 0 && --failing.countdown === 0) throw new Error("renderer exploded");
      return real.renderExport(...args);
    },
  };
});

const BULK = "/api/export/bulk";
const prd = (topic: string) => `## Problem\n\n${topic} is slow today.\n\n## Requirements\n\n- Must: make ${topic} fast\n`;
/** Every entry of the zip's central directory: name, CRC-32, method and sizes as recorded. */
function centralDirectory(zip: Uint8Array) {
  const view = Buffer.from(zip);
  const end = view.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  const entries: { name: string; crc: number; method: number; size: number; compressed: number }[] = [];
  for (let at = view.readUInt32LE(end + 16), n = view.readUInt16LE(end + 10); n > 0; n--) {
    const nameLength = view.readUInt16LE(at + 28);
    entries.push({
      method: view.readUInt16LE(at + 10),
      crc: view.readUInt32LE(at + 16),
      compressed: view.readUInt32LE(at + 20),
      size: view.readUInt32LE(at + 24),
      name: view.subarray(at + 46, at + 46 + nameLength).toString("utf8"),
    });
    at += 46 + nameLength + view.readUInt16LE(at + 30) + view.readUInt16LE(at + 32);
  }
  return entries;
}

const text = (bytes: Uint8Array | undefined) => Buffer.from(bytes ?? new Uint8Array()).toString("utf8");

let owner: Account, viewer: Account, outsider: Account;
let alpha: string, beta: string, alphaTwin: string, outsiderProject: string;

beforeAll(async () => {
  owner = await signedUpClient({ name: "Bo Bulk" });
  viewer = await joinOrg(owner.organization.id, "viewer", "Vera Viewer");
  outsider = await signedUpClient({ name: "Otto Outsider" });
  alpha = await newProjectWithPrd(owner, "Alpha Search", prd("Search"));
  beta = await newProjectWithPrd(owner, "Beta Billing", prd("Billing"));
  alphaTwin = await newProjectWithPrd(owner, "Alpha Search", prd("Search again"));
  outsiderProject = await newProjectWithPrd(outsider, "Other Org", prd("Secrets"));
});

afterEach(() => {
  failing.countdown = 0;
  setFlagResolver(() => true);
});

describe("POST /api/export/bulk: refusals before streaming", () => {
  it("21 projects → 400 TOO_MANY_PROJECTS (20 is the limit)", async () => {
    const ids = Array.from({ length: 21 }, (_, i) => `project-${i}`);
    const res = await owner.client.post(BULK, { projectIds: ids, format: "html" });
    expectError(res, 400, "TOO_MANY_PROJECTS");
    expect(res.body.error).toContain("20");
    // 20 unknown ids are counted, then looked up: 404, not 400.
    expectError(await owner.client.post(BULK, { projectIds: ids.slice(0, 20), format: "html" }), 404, "NOT_FOUND");
  });

  it("validates projectIds and format", async () => {
    expectError(await owner.client.post(BULK, { format: "html" }), 400, "VALIDATION_ERROR");
    expectError(await owner.client.post(BULK, { projectIds: [], format: "html" }), 400, "VALIDATION_ERROR");
    expectError(await owner.client.post(BULK, { projectIds: "abc", format: "html" }), 404, "NOT_FOUND");
    expectError(await owner.client.post(BULK, { projectIds: [alpha] }), 400, "VALIDATION_ERROR");
    const bad = await owner.client.post(BULK, { projectIds: [alpha], format: "docx" });
    expectError(bad, 400, "VALIDATION_ERROR");
    expect(bad.body.error).toContain("pdf, html, markdown, all");
  });

  it("a project of another organization, or one a viewer cannot read → 404 for the whole request", async () => {
    const res = await owner.client.post(BULK, { projectIds: [alpha, outsiderProject], format: "markdown" });
    expectError(res, 404, "NOT_FOUND");
    expect(res.body.details).toEqual([{ path: "projectIds.1", message: `Project ${outsiderProject} not found` }]);
    expectError(await viewer.client.post(BULK, { projectIds: [alpha], format: "markdown" }), 404, "NOT_FOUND");
  });

  it("pdf and all need export_pdf (403 FEATURE_DISABLED); html and markdown do not", async () => {
    setFlagResolver((_actor, key) => key !== "export_pdf");
    expectError(await owner.client.post(BULK, { projectIds: [alpha], format: "pdf" }), 403, "FEATURE_DISABLED");
    expectError(await owner.client.post(BULK, { projectIds: [alpha], format: "all" }), 403, "FEATURE_DISABLED");
    expect((await rawPost(owner.client, BULK, { projectIds: [alpha], format: "html" })).status).toBe(200);
  });
});

describe("POST /api/export/bulk: the zip", () => {
  it("html: one file per project with unique names, plus README.txt", async () => {
    const res = await rawPost(owner.client, BULK, { projectIds: [alpha, beta, alphaTwin], format: "html" });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/zip");
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="prd-export-\d{4}-\d{2}-\d{2}\.zip"/);
    const files = unzipSync(res.bytes);
    expect(Object.keys(files).sort()).toEqual(["Alpha-Search-2.html", "Alpha-Search.html", "Beta-Billing.html", "README.txt"]);
    expect(text(files["Beta-Billing.html"])).toContain("Billing is slow today.");
    expect(text(files["Alpha-Search-2.html"])).toContain("Search again is slow today.");
    const readme = text(files["README.txt"]);
    expect(readme).toContain("3 projects");
    expect(readme).toContain("Beta Billing: Beta-Billing.html");
  });

  it("markdown: each file is the PRD under its title; duplicate ids count once", async () => {
    const res = await rawPost(owner.client, BULK, { projectIds: [beta, alpha, beta], format: "markdown" });
    expect(res.status, res.text).toBe(200);
    const files = unzipSync(res.bytes);
    expect(Object.keys(files).sort()).toEqual(["Alpha-Search.md", "Beta-Billing.md", "README.txt"]);
    expect(text(files["Beta-Billing.md"])).toBe(`# Beta Billing\n\n${prd("Billing")}`);
    expect(text(files["Alpha-Search.md"])).toBe(`# Alpha Search\n\n${prd("Search")}`);
  });

  it("all: a folder per project with the PDF, the HTML and the Markdown", async () => {
    const res = await rawPost(owner.client, BULK, { projectIds: [alpha, beta, alphaTwin], format: "all" });
    expect(res.status, res.text).toBe(200);
    const files = unzipSync(res.bytes);
    expect(Object.keys(files).sort()).toEqual([
      "Alpha-Search-2/Alpha-Search.html",
      "Alpha-Search-2/Alpha-Search.md",
      "Alpha-Search-2/Alpha-Search.pdf",
      "Alpha-Search/Alpha-Search.html",
      "Alpha-Search/Alpha-Search.md",
      "Alpha-Search/Alpha-Search.pdf",
      "Beta-Billing/Beta-Billing.html",
      "Beta-Billing/Beta-Billing.md",
      "Beta-Billing/Beta-Billing.pdf",
      "README.txt",
    ]);
    const pdf = files["Beta-Billing/Beta-Billing.pdf"]!;
    expect(Buffer.from(pdf.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    // Each entry's recorded CRC and size match its content (the text is deflated off the event loop, the PDF stored).
    const entries = centralDirectory(res.bytes);
    expect(entries.map((e) => e.name).sort()).toEqual(Object.keys(files).sort());
    for (const entry of entries) {
      expect(entry.crc, entry.name).toBe(zlib.crc32(files[entry.name]!));
      expect(entry.size, entry.name).toBe(files[entry.name]!.byteLength);
      expect(entry.method, entry.name).toBe(entry.name.endsWith(".pdf") ? 0 : 8);
      if (entry.method === 8) expect(entry.compressed, entry.name).toBeLessThan(entry.size);
    }
    expect(pdfText(pdf).replace(/\s+/g, " ")).toContain("Billing is slow today.");
  });

  it("streams: the body arrives in several chunks, and the export completes only when the zip is read to the end", async () => {
    const ids = [alpha, beta, alphaTwin];
    const before = (await eventsNamed(owner.organization.id, "export.completed")).length;
    const res = await rawCall(owner.client, "POST", BULK, { json: { projectIds: ids, format: "markdown" } });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Length")).toBeNull();
    // The answer is there, the archive is not finished yet.
    expect((await eventsNamed(owner.organization.id, "export.completed")).length).toBe(before);
    const reader = res.body!.getReader();
    const chunks: Uint8Array[] = [];
    for (let r = await reader.read(); !r.done; r = await reader.read()) chunks.push(r.value);
    expect(chunks.length).toBeGreaterThan(ids.length);
    const zip = Buffer.concat(chunks);
    expect(Object.keys(unzipSync(zip))).toHaveLength(ids.length + 1);
    const events = await eventsNamed(owner.organization.id, "export.completed");
    expect(events.length).toBe(before + 1);
    expect(events.at(-1)!.data).toMatchObject({ projectIds: ids, format: "markdown", bytes: zip.byteLength, bulk: true });
  });
});

describe("POST /api/export/bulk: renderer failures", () => {
  it("the first project failing → 500 before any byte, and export.failed", async () => {
    failing.countdown = 1;
    const res = await owner.client.post(BULK, { projectIds: [alpha, beta], format: "html" });
    expectError(res, 500, "INTERNAL_ERROR");
    const failed = await eventsNamed(owner.organization.id, "export.failed");
    expect(failed.at(-1)!.data).toMatchObject({ projectId: alpha, format: "html", error: "renderer exploded" });
  });

  it("a later project failing → the others are delivered, README.txt names the failure, export.failed recorded", async () => {
    failing.countdown = 2;
    const res = await rawPost(owner.client, BULK, { projectIds: [alpha, beta], format: "html" });
    expect(res.status).toBe(200);
    const files = unzipSync(res.bytes);
    expect(Object.keys(files).sort()).toEqual(["Alpha-Search.html", "README.txt"]);
    expect(text(files["README.txt"])).toContain("Could not be exported:\n- Beta Billing (HTML): renderer exploded");
    const failed = await eventsNamed(owner.organization.id, "export.failed");
    expect(failed.at(-1)!.data).toMatchObject({ projectId: beta, format: "html", bulk: true });
    const completed = await eventsNamed(owner.organization.id, "export.completed");
    expect(completed.at(-1)!.data).toMatchObject({ projectIds: [alpha, beta], failedProjectIds: [beta] });
  });
});

describe("POST /api/export/bulk: 20 large projects", () => {
  it("renders one project at a time, as the reader asks for more", async () => {
    await setPlan(owner.organization.id, "pro");
    const big = (i: number) => `## Section ${i}\n\n${"Lorem ipsum dolor sit amet, consectetur adipiscing elit. ".repeat(4000)}\n`;
    const ids = [alpha, beta, alphaTwin];
    while (ids.length < 20) ids.push(await newProjectWithPrd(owner, `Large ${ids.length}`, big(ids.length)));
    failing.calls = 0;
    const res = await rawCall(owner.client, "POST", BULK, { json: { projectIds: ids, format: "html" } });
    expect(res.status).toBe(200);
    expect(failing.calls).toBe(1);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(failing.calls).toBeLessThanOrEqual(2);
    let size = first.value!.byteLength;
    for (let r = await reader.read(); !r.done; r = await reader.read()) size += r.value.byteLength;
    expect(failing.calls).toBe(20);
    expect(size).toBeGreaterThan(0);
  });
});
