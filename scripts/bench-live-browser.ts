/**
 * Remote keystroke latency in real browsers (docs/design/live-editing.md):
 *
 *   npm run bench:live-browser        (builds first when the build is stale)
 *
 * Starts the production app on a fresh DATA_DIR, gives one project a PRD and
 * opens it in two Chromium contexts (two sessions of one user). Editor A
 * types KEYS (80) characters, one every 120 ms, into a paragraph; editor B
 * records, with a MutationObserver on its editor, when each character
 * appears. Latency = B's render time − A's keydown time, both read from the
 * same machine clock. Then both documents are compared. The load of many
 * editors is scripts/bench-live.ts.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { chromium } from "playwright-core";
import { freePort, productionEnv, spawnGroup, stopGroup, waitForOk } from "./bench/harness";

const KEYS = Number(process.env.KEYS ?? 80);
if (spawnSync(process.execPath, ["scripts/start.mjs", "--build-only"], { stdio: "inherit" }).status !== 0) process.exit(1);

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-bench-live-browser-"));
const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const app = spawnGroup(process.execPath, ["build/server.js"], productionEnv(port, dataDir, { LOG_LEVEL: "warn" }), false);
const q = (xs: number[], f: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(f * xs.length))] ?? Number.NaN;

try {
  await waitForOk(`${base}/api/health`);
  const origin = { "Content-Type": "application/json", Origin: base };
  const reg = await fetch(`${base}/api/auth/register`, {
    method: "POST",
    headers: origin,
    body: JSON.stringify({ name: "Bench Typist", email: "typist@example.com", password: "Bench-Typist-7" }),
  });
  const cookie = reg.headers.getSetCookie()[0]!.split(";")[0]!;
  const headers = { ...origin, cookie };
  const project = (await (await fetch(`${base}/api/projects`, { method: "POST", headers, body: JSON.stringify({ name: "Latency" }) })).json()) as {
    id: string;
  };
  const prd = fs.readFileSync("tests/fixtures/calibration/01-dental-appointment-reminders.md", "utf8");
  await fetch(`${base}/api/projects/${project.id}/prd`, { method: "POST", headers, body: JSON.stringify({ content: prd }) });

  const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium", args: ["--no-sandbox"] });
  const open = async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 900 } });
    const [name, ...value] = cookie.split("=");
    await context.addCookies([{ name: name!, value: value.join("="), url: base }]);
    const page = await context.newPage();
    await page.goto(`${base}/projects/${project.id}`);
    await page.locator(".rich-editor-content p").first().waitFor();
    return page;
  };
  const a = await open();
  const b = await open();
  await b.evaluate(() => {
    const root = document.querySelector(".rich-editor-content")!;
    const w = window as unknown as { seen: [number, number][] };
    w.seen = [];
    new MutationObserver(() => w.seen.push([performance.timeOrigin + performance.now(), root.textContent!.length])).observe(root, {
      subtree: true,
      characterData: true,
      childList: true,
    });
  });
  const startLength = await b.evaluate(() => document.querySelector(".rich-editor-content")!.textContent!.length);
  await a.locator(".rich-editor-content p").first().click();
  await a.keyboard.press("End");
  const sent: number[] = [];
  for (let i = 0; i < KEYS; i++) {
    sent.push(await a.evaluate(() => performance.timeOrigin + performance.now()));
    await a.keyboard.type(String.fromCharCode(97 + (i % 26)));
    await a.waitForTimeout(120);
  }
  await b.waitForFunction((n) => document.querySelector(".rich-editor-content")!.textContent!.length >= n, startLength + KEYS, { timeout: 10_000 });
  const seen = await b.evaluate(() => (window as unknown as { seen: [number, number][] }).seen);
  const latencies = sent.map((at, i) => {
    const arrival = seen.find(([, length]) => length >= startLength + i + 1);
    return arrival ? arrival[0] - at : Number.NaN;
  });
  const textA = await a.locator(".rich-editor-content").textContent();
  const textB = await b.locator(".rich-editor-content").textContent();
  console.log(
    `| remote keystroke, keydown in A → rendered in B | ${q(latencies, 0.5).toFixed(1)} | ${q(latencies, 0.95).toFixed(1)} | ${Math.max(...latencies).toFixed(1)} | ${latencies.length} |`,
  );
  console.log(`documents equal: ${textA === textB}; characters typed ${KEYS}, arrived ${(textB?.length ?? 0) - startLength}`);
  await browser.close();
} finally {
  await stopGroup(app);
  fs.rmSync(dataDir, { recursive: true, force: true });
}
