import { afterAll, afterEach, describe, expect, it } from "vitest";
import type { ExportDocument } from "~/domain/exports/document";
import { renderExport } from "~/domain/exports/files.server";
import { renderBounds, stopRenderWorkers } from "~/domain/exports/render-pool.server";
import { makePng } from "../fixtures/documents";
import { largePrd } from "../support/large-prd";
import { pdfText } from "./exports-support";

/**
 * PDF, DOCX and HTML exports render in a worker thread
 * (app/domain/exports/render-pool.server.ts): the server's event loop keeps
 * turning while a long PRD is laid out, and a render that runs too long or
 * needs too much memory fails on its own without taking the next one down.
 */

const defaults = { ...renderBounds };
afterEach(async () => {
  Object.assign(renderBounds, defaults);
  await stopRenderWorkers();
});
afterAll(() => stopRenderWorkers());

const doc = (markdown: string, images: ExportDocument["images"] = new Map()): ExportDocument => ({
  title: "Checkout redesign",
  subtitle: null,
  markdown,
  generatedAt: new Date("2026-11-25T12:00:00Z"),
  branding: { primaryColor: "#4f46e5", accentColor: "#0ea5e9", companyName: "Acme", logo: null },
  diagrams: new Map(),
  images,
});

describe("export rendering in a worker thread", () => {
  it("keeps the event loop turning while a 30,000-word PDF renders", async () => {
    const { markdown } = largePrd(30_000);
    let last = performance.now();
    let longestGap = 0;
    const ticker = setInterval(() => {
      const now = performance.now();
      longestGap = Math.max(longestGap, now - last);
      last = now;
    }, 1);
    const started = performance.now();
    const file = await renderExport(doc(markdown), "pdf");
    const elapsed = performance.now() - started;
    clearInterval(ticker);
    expect(Buffer.from(file.bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    expect(pdfText(file.bytes)).toContain("Section 1");
    // Rendered in this thread, the loop would stand still for (almost) the whole render.
    expect(longestGap).toBeLessThan(elapsed / 2);
  });

  it("hands images to the renderer intact (HTML embeds them as data URIs)", async () => {
    const png = await makePng(8, 8);
    const images = new Map([["/api/uploads/images/abc", { data: png, contentType: "image/png" as const, width: 8, height: 8 }]]);
    const file = await renderExport(doc("# Flow\n\n![The flow](/api/uploads/images/abc)", images), "html");
    expect(Buffer.from(file.bytes).toString("utf8")).toContain(`data:image/png;base64,${png.toString("base64")}`);
  });

  it("fails a render over its time limit, and the next export gets a fresh worker", async () => {
    renderBounds.timeoutMs = 1;
    await expect(renderExport(doc("# Slow\n\nText."), "pdf")).rejects.toThrow("The export took longer than 0.001 s to render");
    renderBounds.timeoutMs = defaults.timeoutMs;
    const file = await renderExport(doc("# Fine\n\nText."), "docx");
    expect(file.bytes.byteLength).toBeGreaterThan(1000);
  });

  it("fails a render that needs more memory than its worker may use", async () => {
    renderBounds.heapMb = 8;
    await expect(renderExport(doc(largePrd(30_000).markdown), "pdf")).rejects.toThrow(/needed more than 8 MB|stopped/);
    renderBounds.heapMb = defaults.heapMb;
    const file = await renderExport(doc("# Fine\n\nText."), "html");
    expect(Buffer.from(file.bytes).toString("utf8")).toContain("Fine");
  });

  it("renders exports waiting in line one after another, each with its own answer", async () => {
    const files = await Promise.all(["pdf", "docx", "html", "html"].map((format, i) => renderExport(doc(`# Part ${i}\n\nBody ${i}.`), format as "pdf")));
    expect(Buffer.from(files[0]!.bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    expect(Buffer.from(files[1]!.bytes.subarray(0, 2)).toString("latin1")).toBe("PK");
    expect(Buffer.from(files[2]!.bytes).toString("utf8")).toContain("Body 2.");
    expect(Buffer.from(files[3]!.bytes).toString("utf8")).toContain("Body 3.");
  });
});
