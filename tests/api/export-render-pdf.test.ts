import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { PDFArray, PDFDict, PDFDocument, PDFHexString, PDFName } from "pdf-lib";
import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { ExportDocument, ExportImage } from "~/domain/exports/document";
import { renderExport } from "~/domain/exports/files.server";
import { renderPdf } from "~/domain/exports/render/pdf.server";
import { largePrd } from "../support/large-prd";

/**
 * The PDF export, read back with poppler's tools: pdftotext finds
 * the text (so it is real, selectable text in embedded fonts), pdfinfo the
 * pages and metadata, pdffonts the embedded subsets, pdfimages the pictures.
 */

const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pdf-export-"));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

let fileCount = 0;
function save(bytes: Uint8Array) {
  const file = path.join(dir, `export-${++fileCount}.pdf`);
  fs.writeFileSync(file, bytes);
  return file;
}
const run = (tool: string, args: string[]) => execFileSync(tool, args, { encoding: "utf8" });
const text = (file: string, page?: number) => run("pdftotext", ["-layout", ...(page ? ["-f", String(page), "-l", String(page)] : []), file, "-"]);
const info = (file: string) => run("pdfinfo", [file]);
const pages = (file: string) => Number(/^Pages:\s+(\d+)/m.exec(info(file))?.[1]);
/** Text with runs of spaces collapsed (pdftotext -layout pads columns). */
const squash = (s: string) => s.replace(/[ \t]+/g, " ");
/** Text on one line: wrapped lines joined. */
const flat = (s: string) => s.replace(/\s+/g, " ");

const png = async (width: number, height: number, rgb: [number, number, number], alpha = false) =>
  sharp({ create: { width, height, channels: alpha ? 4 : 3, background: { r: rgb[0], g: rgb[1], b: rgb[2], alpha: alpha ? 0.5 : 1 } } })
    .png()
    .toBuffer();

const RENDERED = "graph TD\n  Cart --> Paid";
const BROKEN = "graph TD\n  Broken --> Source";

let logo: ExportImage;
let diagramPng: Buffer;
let images: Map<string, ExportImage>;

beforeAll(async () => {
  logo = { data: await png(240, 80, [200, 30, 90]), contentType: "image/png", width: 240, height: 80 };
  diagramPng = await png(640, 320, [30, 160, 90], true);
  const create = { width: 120, height: 60, channels: 3 as const, background: { r: 10, g: 120, b: 200 } };
  images = new Map<string, ExportImage>([
    ["/api/uploads/images/jpeg", { data: await sharp({ create }).jpeg().toBuffer(), contentType: "image/jpeg", width: 120, height: 60 }],
    ["/api/uploads/images/webp", { data: await sharp({ create }).webp().toBuffer(), contentType: "image/webp", width: 120, height: 60 }],
    ["/api/uploads/images/gif", { data: await sharp({ create }).gif().toBuffer(), contentType: "image/gif", width: 120, height: 60 }],
  ]);
});

function doc(markdown: string, overrides: Partial<ExportDocument> = {}): ExportDocument {
  return {
    title: "Checkout Revamp",
    subtitle: "Draft · version 3 · Jane Doe",
    markdown,
    generatedAt: new Date("2025-03-01T12:30:00Z"),
    branding: { primaryColor: "#0f766e", accentColor: "#f59e0b", companyName: "Acme Payments GmbH", logo },
    diagrams: new Map([
      [RENDERED, { svg: "<svg/>", png: diagramPng, width: 320, height: 160 }],
      [BROKEN, null],
    ]),
    images: new Map(),
    ...overrides,
  };
}

const rows = (n: number) =>
  Array.from(
    { length: n },
    (_, i) => `| REQ-${i + 1} | Requirement number ${i + 1} that is long enough to wrap inside its cell on a page | ${i % 2 ? "Must" : "Could"} |`,
  ).join("\n");

const PRD = `# Overview

Zürich — naïve café ✓ Привет, with **bold words**, *emphasis*, ~~struck~~, \`inlineCode()\`, [the spec](https://example.com/spec) and &amp; entities.

## Goals

- First bullet
- Second bullet
  1. Nested step one
  2. Nested step two
- [x] Done task

> Customers abandon carts when payment fails.

\`\`\`ts
export const retries = 3; // code block text
\`\`\`

## Flow

\`\`\`mermaid
${RENDERED}
\`\`\`

\`\`\`mermaid
${BROKEN}
\`\`\`

## Requirements

| ID | Requirement | Priority |
|---|---|:-:|
${rows(120)}

### Appendix

See [the goals](#goals). The end of the document.
`;

describe("PDF export", () => {
  let file: string;
  let all: string;
  beforeAll(async () => {
    file = save(await renderPdf(doc(PRD)));
    all = text(file);
  });

  it("has a branded title page: company, title, subtitle, date, page number", () => {
    const first = squash(text(file, 1));
    expect(first).toContain("Acme Payments GmbH");
    expect(first).toContain("Checkout Revamp");
    expect(first).toContain("Draft · version 3 · Jane Doe");
    expect(first).toContain("Generated 1 March 2025, 12:30 UTC");
    expect(first).toMatch(new RegExp(`Page 1 of ${pages(file)}`));
  });

  it("keeps the PRD's text, headings, Unicode, lists, quotes, code and links as real text", () => {
    for (const heading of ["Overview", "Goals", "Flow", "Requirements", "Appendix"]) expect(all).toContain(heading);
    expect(all).toContain("Zürich — naïve café ✓ Привет");
    expect(flat(all)).toContain("with bold words, emphasis, struck, inlineCode(), the spec and & entities.");
    expect(all).toMatch(/• First bullet/);
    expect(all).toMatch(/1\. Nested step one/);
    expect(all).toMatch(/☑ Done task/);
    expect(all).toContain("Customers abandon carts when payment fails.");
    expect(all).toContain("export const retries = 3; // code block text");
  });

  it("embeds the DejaVu fonts as subsets with a Unicode map, and sets the metadata", () => {
    const fonts = run("pdffonts", [file]);
    for (const name of ["DejaVuSans", "DejaVuSans-Bold", "DejaVuSans-Oblique", "DejaVuSansMono"]) {
      expect(fonts).toMatch(new RegExp(`[A-Z]{6}\\+${name}\\s+CID TrueType\\s+Identity-H\\s+yes yes yes`));
    }
    // poppler rasterizes every page with the embedded subsets without a complaint.
    const raster = spawnSync("pdftoppm", ["-r", "20", "-png", file, path.join(dir, "raster")], { encoding: "utf8" });
    expect(raster.status).toBe(0);
    expect(raster.stderr).toBe("");
    expect(fs.readdirSync(dir).filter((f) => f.startsWith("raster")).length).toBe(pages(file));
    const meta = info(file);
    expect(meta).toMatch(/^Title:\s+Checkout Revamp$/m);
    expect(meta).toMatch(/^Author:\s+Acme Payments GmbH$/m);
    expect(meta).toMatch(/^Producer:\s+PRD Studio/m);
    expect(meta).toMatch(/^Page size:\s+595.28 x 841.89 pts \(A4\)/m);
  });

  it("numbers every page and puts the company name in the running header", () => {
    const total = pages(file);
    expect(total).toBeGreaterThan(4);
    for (let page = 1; page <= total; page++) expect(text(file, page)).toContain(`Page ${page} of ${total}`);
    expect(text(file, total)).toContain("Acme Payments GmbH");
  });

  it("lists h1–h3 in the contents with the pages they are on", () => {
    const contents = squash(text(file, 2));
    expect(contents).toContain("Contents");
    for (const heading of ["Overview", "Goals", "Flow", "Requirements", "Appendix"]) {
      const match = new RegExp(`^\\s*${heading} (\\d+)\\s*$`, "m").exec(contents);
      expect(match, `${heading} in the contents`).not.toBeNull();
      const page = Number(match![1]);
      expect(page).toBeGreaterThan(2);
      expect(text(file, page), `${heading} on page ${page}`).toMatch(new RegExp(`^\\s*${heading}\\s*$`, "m"));
    }
  });

  it("wraps a long table across pages and repeats its header row on each", () => {
    expect(flat(all)).toContain("REQ-1 Requirement number 1 that is long enough");
    expect(all).toContain("REQ-120");
    const tablePages = Array.from({ length: pages(file) }, (_, i) => i + 1).filter((p) => /REQ-\d+/.test(text(file, p)));
    expect(tablePages.length).toBeGreaterThan(1);
    for (const page of tablePages) expect(squash(text(file, page))).toMatch(/ID Requirement Priority/);
    // Every row is there exactly once.
    for (let i = 1; i <= 120; i++) expect(all.match(new RegExp(`REQ-${i}\\b`, "g"))?.length, `REQ-${i}`).toBe(1);
  });

  it("draws a rendered Mermaid diagram as a picture and shows the source of one that could not be rendered", () => {
    expect(all).not.toContain("Cart --> Paid");
    expect(all).toContain("Diagram could not be rendered");
    expect(all).toContain("Broken --> Source");
    const list = run("pdfimages", ["-list", file]);
    // The logo (title page) and the diagram (with its alpha as a soft mask).
    expect(list).toMatch(/^\s+1\s+\d+\s+image\s+240\s+80\s+rgb/m);
    expect(list).toMatch(/\s+image\s+640\s+320\s+rgb/);
    expect(list).toMatch(/\s+smask\s+640\s+320\s+gray/);
  });

  it("links web addresses, the contents entries and #anchors", async () => {
    const pdf = await PDFDocument.load(fs.readFileSync(file));
    const uris: string[] = [];
    let internal = 0;
    for (const page of pdf.getPages()) {
      const annots = page.node.lookupMaybe(PDFName.of("Annots"), PDFArray);
      for (let i = 0; i < (annots?.size() ?? 0); i++) {
        const annot = annots!.lookup(i, PDFDict);
        const action = annot.lookupMaybe(PDFName.of("A"), PDFDict);
        const uri = action?.lookupMaybe(PDFName.of("URI"), PDFHexString);
        if (uri) uris.push(Buffer.from(uri.asString(), "hex").toString("latin1"));
        if (annot.has(PDFName.of("Dest"))) internal++;
      }
    }
    expect(uris).toEqual(["https://example.com/spec"]);
    // Five contents entries and the [the goals](#goals) link.
    expect(internal).toBe(6);
    expect(pdf.catalog.has(PDFName.of("Outlines"))).toBe(true);
  });
});

describe("PDF export edge cases", () => {
  it("replaces characters no font has instead of failing", async () => {
    const file = save(await renderPdf(doc("Emoji 😀 and 👩‍💻, CJK 中文, a lone \ud800 surrogate, control \u0007 chars and a tab\there. Still here.")));
    const body = text(file, 2);
    expect(body).toContain("Emoji 😀 and");
    expect(body).toContain("Still here.");
    expect(body).toContain("\ufffd");
  });

  it("embeds JPEG, WebP and GIF images and shows the alt text of images it does not have", async () => {
    const markdown = [
      "![jpeg](/api/uploads/images/jpeg)",
      "![webp](/api/uploads/images/webp)",
      '<p>Raw <img src="/api/uploads/images/gif" alt="gif"></p>',
      "![Architecture sketch](https://elsewhere.example/x.png)",
    ].join("\n\n");
    const file = save(await renderPdf(doc(markdown, { images, branding: { ...doc("").branding, logo: null } })));
    const list = run("pdfimages", ["-list", file]);
    expect(list.match(/\s+image\s+120\s+60\s+/g)?.length).toBe(3);
    expect(list).toMatch(/\s+image\s+120\s+60\s+rgb\s+3\s+8\s+jpeg/);
    expect(text(file)).toContain("[Image: Architecture sketch]");
  });

  it("writes a title page and a note for an empty document, without contents", async () => {
    const file = save(await renderPdf(doc("", { subtitle: null, branding: { primaryColor: "nonsense", accentColor: "", companyName: null, logo: null } })));
    expect(pages(file)).toBe(2);
    const all = text(file);
    expect(all).toContain("Checkout Revamp");
    expect(all).toContain("This document has no content yet.");
    expect(all).not.toContain("Contents");
    expect(all).toContain("Page 2 of 2");
  });

  it("goes through renderExport as application/pdf with a .pdf name", async () => {
    const exported = await renderExport(doc("# Hello\n\nWorld"), "pdf");
    expect(exported.contentType).toBe("application/pdf");
    expect(exported.filename).toBe("Checkout-Revamp.pdf");
    expect(Buffer.from(exported.bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    expect(text(save(exported.bytes))).toContain("World");
  });

  it("renders a 30,000-word PRD, every section in it", async () => {
    const { markdown } = largePrd(30_000);
    const sections = markdown.match(/^## \d+\. Section \d+$/gm)!.length;
    const file = save(await renderPdf(doc(markdown)));
    expect(pages(file)).toBeGreaterThan(60);
    const all = text(file);
    expect(all).toContain(`${sections}. Section ${sections}`);
    expect(flat(all)).toContain("the product team will deliver a reliable export pipeline");
  });
});
