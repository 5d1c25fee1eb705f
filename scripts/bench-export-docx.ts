/**
 * DOCX export of a generated 30,000-word PRD (target: under 2 s,
 * process peak RSS under 300 MB). Prints time, peak RSS and size.
 *   npx tsx scripts/bench-export-docx.ts [words]
 */
import { renderDocx } from "~/domain/exports/render/docx.server";
import { renderHtml } from "~/domain/exports/render/html.server";
import type { ExportDocument } from "~/domain/exports/document";
import { largePrd } from "../tests/support/large-prd";

const words = Number(process.argv[2] ?? 30_000);
const { markdown, wordCount } = largePrd(words);
const doc: ExportDocument = {
  title: "Large PRD",
  subtitle: "Draft · version 3",
  markdown,
  generatedAt: new Date(),
  branding: { primaryColor: "#0f766e", accentColor: "#f59e0b", companyName: "Acme", logo: null },
  diagrams: new Map(),
  images: new Map(),
};

let peak = process.memoryUsage().rss;
const sample = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 2);
const before = process.memoryUsage().rss;

let t = performance.now();
let cpu = process.cpuUsage();
const docx = await renderDocx(doc);
const docxMs = performance.now() - t;
cpu = process.cpuUsage(cpu);
const docxCpu = (cpu.user + cpu.system) / 1000;
peak = Math.max(peak, process.memoryUsage().rss);
const docxPeak = peak;

t = performance.now();
const html = renderHtml(doc);
const htmlMs = performance.now() - t;

clearInterval(sample);
const mb = (n: number) => `${(n / 1024 / 1024).toFixed(0)} MB`;
console.log(`words: ${wordCount} (markdown ${(markdown.length / 1024).toFixed(0)} KB)`);
console.log(
  `docx: ${docxMs.toFixed(0)} ms wall (${docxCpu.toFixed(0)} ms CPU), ${(docx.byteLength / 1024).toFixed(0)} KB, RSS before ${mb(before)}, peak ${mb(docxPeak)}`,
);
console.log(`html: ${htmlMs.toFixed(0)} ms, ${(html.length / 1024).toFixed(0)} KB, peak RSS overall ${mb(Math.max(peak, process.memoryUsage().rss))}`);
