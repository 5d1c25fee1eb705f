/**
 * The rule-based PRD check on 320 K-character PRDs (issue 33): the check as it
 * was (tests/support/prd-check-reference/, skipped with `--no-old`), the
 * check now (app/prd-rules/check.ts), and a bare baseline that only splits
 * the text into lines and looks at each line once. Median of the runs, in
 * milliseconds, printed as a Markdown table for docs/benchmarks.md.
 *
 *   npx tsx scripts/bench-prd-check.ts [--runs 9] [--no-old]
 */
import { checkPrd } from "~/prd-rules/check";
import { largePrd } from "../tests/support/large-prd";
import { manySectionsPrd } from "../tests/support/many-sections-prd";
import { checkPrd as oldCheckPrd } from "../tests/support/prd-check-reference/check";

const CHARS = 320_000;
const arg = (name: string) => process.argv.indexOf(name);
const runs = arg("--runs") > 0 ? Number(process.argv[arg("--runs") + 1]) : 9;
const withOld = arg("--no-old") < 0;

function realistic() {
  let words = 30_000;
  let md = largePrd(words).markdown;
  while (md.length < CHARS) {
    words = Math.ceil((words * CHARS) / md.length) + 10;
    md = largePrd(words).markdown;
  }
  return md.slice(0, CHARS);
}

function shortSections() {
  const parts: string[] = [];
  let length = 0;
  for (let i = 0; length < CHARS; i++) {
    const part = `## S${i}\n- fast TODO\n`;
    parts.push(part);
    length += part.length;
  }
  return parts.join("").slice(0, CHARS);
}

const fill = (unit: string) => unit.repeat(Math.ceil(CHARS / unit.length)).slice(0, CHARS);
const spaces = " ".repeat(CHARS - 40);
/** [name, text, whether the old check is timed on it (the hostile ones ran for minutes)]. */
const DOCS: [string, string, boolean][] = [
  ["realistic (tests/support/large-prd.ts)", realistic(), true],
  ["many sections (tests/support/many-sections-prd.ts)", manySectionsPrd(CHARS), true],
  ["15,000 two-line sections", shortSections(), true],
  ["hostile: `[[[[…`", fill("["), false],
  ["hostile: `*a *a …`", fill("*a "), false],
  ["hostile: `As` + 320 K spaces", `## Stories\nAs${spaces}x`, false],
  ["hostile: `Owner: tbc` + 320 K spaces", `## Risks\n- Owner: tbc${spaces}x`, false],
];

/** The floor: split into lines and test each line once. */
function bare(text: string) {
  let n = 0;
  for (const line of text.replace(/\r\n?/g, "\n").split("\n")) if (/\S/.test(line)) n++;
  return n;
}

/** Median and fastest of `n` runs, in ms, after one run to compile. */
function timed(fn: () => unknown, n = runs) {
  fn();
  const times: number[] = [];
  for (let i = 0; i < n; i++) {
    const start = performance.now();
    fn();
    times.push(performance.now() - start);
  }
  times.sort((a, b) => a - b);
  return { median: times[Math.floor(times.length / 2)]!, best: times[0]! };
}

const ms = (n: number) => (n >= 100 ? n.toFixed(0) : n.toFixed(1));
console.log(`${CHARS.toLocaleString("en")} characters; median (fastest) of ${runs} runs, 3 for the old check; Node ${process.version}.\n`);
console.log("| PRD | lines | issues returned of found | bare baseline ms | before ms | after ms |");
console.log("|---|---|---|---|---|---|");
const cell = (t: { median: number; best: number }) => `${ms(t.median)} (${ms(t.best)})`;
for (const [name, text, old] of DOCS) {
  const now = checkPrd(text);
  const before = withOld && old ? cell(timed(() => oldCheckPrd(text), 3)) : old ? "—" : "> 10 s (stopped)";
  const after = cell(timed(() => checkPrd(text)));
  console.log(
    `| ${name} | ${text.split("\n").length} | ${now.issues.length} of ${now.totalIssues} | ${cell(timed(() => bare(text)))} | ${before} | ${after} |`,
  );
}
