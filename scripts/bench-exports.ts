/**
 * Export rendering benchmark (docs/benchmarks.md, "Exports (issue 11)").
 *
 *   npm run bench:exports            (BENCH_RUNS=5, BENCH_WORDS=30000)
 *
 * Generates a deterministic 30,000-word PRD (headings, prose with inline
 * styles and links, nested lists, 40 tables, code blocks, quotes, one Mermaid
 * block with a rendered PNG) and renders it in a fresh child process per run,
 * so every run pays what the first export after a start pays (module loading,
 * font parsing) and has its own peak RSS. Each child also renders a second
 * time (warm). Measured in the same run:
 *   - pdf:      renderPdf (app/domain/exports/render/pdf.server.ts)
 *   - docx:     renderDocx (app/domain/exports/render/docx.server.ts)
 *   - baseline: pdf-lib alone drawing the markdown's text lines with the same
 *               embedded DejaVu Sans (subset) through page.drawText, no
 *               layout, no styles, no wrapping: what "real text in an
 *               embedded font" costs with pdf-lib's own text path.
 *   - helvetica: the app's plain-text PDF writer (app/utils/pdf.server.ts,
 *               chat export): the markdown's paragraphs wrapped in Helvetica,
 *               a standard font (nothing embedded, WinAnsi only).
 * Prints a Markdown table (medians) for docs/benchmarks.md.
 */
import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import zlib from "node:zlib";
import type { ExportDocument } from "~/domain/exports/document";

const RUNS = Number(process.env.BENCH_RUNS ?? 5);
const WORDS = Number(process.env.BENCH_WORDS ?? 30_000);
const TABLES = 40;

const VOCABULARY = (
  "the checkout team will deliver a reliable payment flow for every merchant while finance reviews approvals " +
  "engineers measure latency budgets across regions with clear ownership onboarding stays simple accessible secure " +
  "auditable from the first release to general availability Zürich café naïve façade résumé Привет мир"
).split(" ");

/** A reproducible PRD of `words` words with TABLES tables and one Mermaid block. */
export function benchPrd(words: number) {
  let count = 0;
  let cursor = 0;
  const phrase = (n: number) => {
    const out: string[] = [];
    for (let i = 0; i < n; i++) out.push(VOCABULARY[(cursor++ * 7) % VOCABULARY.length]!);
    count += n;
    return out.join(" ");
  };
  const sections = TABLES;
  const perSection = words / sections;
  const parts: string[] = [];
  const mermaid = "graph TD\n  A[Cart] --> B{Paid?}\n  B -->|yes| C[Receipt]\n  B -->|no| D[Retry]";
  for (let s = 1; s <= sections; s++) {
    const target = perSection * s;
    if (s % 8 === 1) parts.push(`# Part ${Math.ceil(s / 8)}: ${phrase(3)}`, "");
    parts.push(`## ${s}. ${phrase(4)}`, "", `${phrase(70)}. **Key point:** ${phrase(12)}, see [the guide](https://example.com/guide/${s}).`, "");
    parts.push(`### ${s}.1 Requirements`, "");
    parts.push("| ID | Requirement | Priority | Owner |", "|---|---|:-:|---|");
    for (let r = 1; r <= 12; r++) parts.push(`| R${s}.${r} | ${phrase(14)} | ${r % 3 ? "Must" : "Should"} | Team ${r % 5} |`);
    parts.push(
      "",
      `- ${phrase(12)}`,
      `- ${phrase(10)}`,
      `  - ${phrase(8)}`,
      `  - ${phrase(8)}`,
      `- [x] ${phrase(6)}`,
      "",
      `1. ${phrase(9)}`,
      `2. ${phrase(9)}`,
      "",
    );
    if (s === 2) parts.push("```mermaid", mermaid, "```", "");
    if (s % 4 === 0) parts.push("```ts", `export const section${s} = { id: ${s}, owner: "team-${s % 7}", enabled: true };`, "```", "");
    if (s % 5 === 0) parts.push(`> ${phrase(25)}`, "");
    parts.push(`### ${s}.2 Notes`, "");
    while (count < target) parts.push(`${phrase(60)} with \`inline code\`, *emphasis* and **strong words**.`, "");
  }
  return { markdown: parts.join("\n"), words: count, mermaid };
}

/** A flat-colour RGB PNG made with zlib alone (sharp would add its own ~30 MB to every child's RSS). */
function solidPng(width: number, height: number, rgb: [number, number, number]) {
  const chunk = (type: string, data: Buffer) => {
    const body = Buffer.concat([Buffer.from(type, "latin1"), data]);
    const out = Buffer.alloc(body.length + 8);
    out.writeUInt32BE(data.length, 0);
    body.copy(out, 4);
    out.writeUInt32BE(zlib.crc32(body), body.length + 4);
    return out;
  };
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8);
  const row = Buffer.alloc(1 + width * 3);
  for (let x = 0; x < width; x++) row.set(rgb, 1 + x * 3);
  const raw = Buffer.concat(Array.from({ length: height }, () => row));
  return Buffer.concat([
    Buffer.from([137, 80, 78, 71, 13, 10, 26, 10]),
    chunk("IHDR", header),
    chunk("IDAT", zlib.deflateSync(raw)),
    chunk("IEND", Buffer.alloc(0)),
  ]);
}

function benchDoc(): ExportDocument {
  const png = solidPng(640, 360, [240, 244, 250]);
  const { markdown, mermaid } = benchPrd(WORDS);
  return {
    title: "Checkout revamp — product requirements",
    subtitle: "Draft · version 3",
    markdown,
    generatedAt: new Date("2025-01-01T00:00:00Z"),
    branding: { primaryColor: "#0f766e", accentColor: "#f59e0b", companyName: "Acme GmbH", logo: null },
    diagrams: new Map([[mermaid, { svg: "", png, width: 320, height: 180 }]]),
    images: new Map(),
  };
}

/** pdf-lib on its own: every markdown line drawn as is, 60 lines a page, DejaVu Sans embedded as a subset. */
async function baseline(doc: ExportDocument) {
  const { PDFDocument } = await import("pdf-lib");
  const fontkit = (await import("@pdf-lib/fontkit")).default;
  const fontFile = path.resolve("app/domain/exports/pdf/fonts/DejaVuSans.ttf");
  const pdf = await PDFDocument.create();
  pdf.registerFontkit(fontkit);
  const font = await pdf.embedFont(fs.readFileSync(fontFile), { subset: true });
  const lines = doc.markdown.split("\n");
  for (let i = 0; i < lines.length; i += 60) {
    const page = pdf.addPage([595.28, 841.89]);
    lines.slice(i, i + 60).forEach((line, k) => {
      if (line) page.drawText(line.slice(0, 110), { x: 40, y: 800 - k * 12.5, size: 8, font });
    });
  }
  return pdf.save();
}

type Result = { coldMs: number; coldCpuMs: number; warmMs: number; maxRssMb: number; bytes: number; error?: string };

async function child(format: string) {
  const doc = benchDoc();
  const render = async () => {
    if (format === "pdf") return (await import("~/domain/exports/render/pdf.server")).renderPdf(doc);
    if (format === "docx") return (await import("~/domain/exports/render/docx.server")).renderDocx(doc);
    if (format === "helvetica") {
      const { textPdf } = await import("~/utils/pdf.server");
      return textPdf(
        doc.title,
        doc.markdown.split(/\n{2,}/).map((text) => ({ kind: "paragraph" as const, text })),
      );
    }
    return baseline(doc);
  };
  const result: Result = { coldMs: 0, coldCpuMs: 0, warmMs: 0, maxRssMb: 0, bytes: 0 };
  try {
    let t = performance.now();
    const cpu = process.cpuUsage();
    const bytes = await render();
    result.coldMs = performance.now() - t;
    const used = process.cpuUsage(cpu);
    result.coldCpuMs = (used.user + used.system) / 1000;
    result.bytes = bytes.byteLength;
    if (format === "pdf" && process.env.BENCH_OUT) fs.writeFileSync(process.env.BENCH_OUT, bytes);
    if (process.env.BENCH_WARM !== "0") {
      t = performance.now();
      await render();
      result.warmMs = performance.now() - t;
    }
  } catch (error) {
    result.error = error instanceof Error ? error.message : String(error);
  }
  result.maxRssMb = process.resourceUsage().maxRSS / 1024;
  process.stdout.write(`RESULT ${JSON.stringify(result)}\n`);
}

function median(values: number[]) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

/**
 * The children run this script bundled by esbuild (packages external), as
 * production runs bundled code: under tsx every module would be compiled on
 * load and the first export would look ~40 % slower than it is. With code
 * splitting, as in the production build: each renderer and the libraries it
 * imports load on its first use, so the first export pays for loading them.
 */
async function bundleChild() {
  const { build } = await import("esbuild");
  const outdir = path.resolve("node_modules/.cache/bench-exports");
  fs.rmSync(outdir, { recursive: true, force: true });
  await build({
    entryPoints: { child: process.argv[1]! },
    bundle: true,
    splitting: true,
    platform: "node",
    format: "esm",
    target: "node20",
    packages: "external",
    logLevel: "warning",
    outExtension: { ".js": ".mjs" },
    outdir,
  });
  return path.join(outdir, "child.mjs");
}

async function parent() {
  const { words } = benchPrd(WORDS);
  const childFile = await bundleChild();
  const loadBefore = os.loadavg();
  const outFile = path.join(os.tmpdir(), `bench-exports-${process.pid}.pdf`);
  console.log(
    `PRD: ${words.toLocaleString("en")} words, ${TABLES} tables, 1 Mermaid diagram; medians of ${RUNS} runs per renderer, each in a fresh process; ${os.cpus().length} CPUs, node ${process.version}\n`,
  );
  const rows: string[] = [];
  for (const format of ["helvetica", "baseline", "pdf", "docx"]) {
    const results: Result[] = [];
    for (let run = 0; run < RUNS; run++) {
      const out = spawnSync(process.execPath, [childFile, "--child", format], {
        encoding: "utf8",
        env: { ...process.env, BENCH_OUT: outFile },
      });
      const line = out.stdout.split("\n").find((l) => l.startsWith("RESULT "));
      if (!line) throw new Error(`child ${format} failed: ${out.stderr}`);
      results.push(JSON.parse(line.slice(7)) as Result);
    }
    const failed = results.find((r) => r.error);
    if (failed) {
      rows.push(`| ${format} | failed: ${failed.error} | | | | |`);
      continue;
    }
    rows.push(
      `| ${format} | ${median(results.map((r) => r.coldMs)).toFixed(0)} | ${median(results.map((r) => r.coldCpuMs)).toFixed(0)} | ${median(results.map((r) => r.warmMs)).toFixed(0)} | ${median(results.map((r) => r.maxRssMb)).toFixed(0)} | ${(median(results.map((r) => r.bytes)) / 1024).toFixed(0)} KB |`,
    );
  }
  console.log(
    `Load average (1, 5, 15 min) before the runs: ${loadBefore.map((l) => l.toFixed(1)).join(", ")}; after: ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(", ")}\n`,
  );
  console.log("| renderer | first export in a fresh process (ms) | its CPU time (ms) | second export (ms) | peak RSS (MB) | output |");
  console.log("|---|---|---|---|---|---|");
  for (const row of rows) console.log(row);
  if (fs.existsSync(outFile)) {
    const info = execFileSync("pdfinfo", [outFile], { encoding: "utf8" });
    console.log(`\nPDF: ${/Pages:\s+(\d+)/.exec(info)?.[1]} pages`);
    fs.rmSync(outFile);
  }
}

const main = process.argv[1] && import.meta.url === pathToFileURL(path.resolve(process.argv[1])).href;
if (main && process.argv.includes("--child")) await child(process.argv[process.argv.indexOf("--child") + 1]!);
else if (main) await parent();
