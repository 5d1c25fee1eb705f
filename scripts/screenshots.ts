/**
 * `npm run screenshots`: the README's pictures, taken from the demo workspace.
 *
 *   npm run build && npm run screenshots
 *
 * Builds nothing itself. Starts the production server (build/server.js) on a
 * free port with a temporary DATA_DIR, seeds the demo workspace into it
 * (db/seed.ts), signs in as the demo owner in Debian's /usr/bin/chromium
 * (CHROMIUM_PATH to use another) and writes compressed PNGs into
 * docs/screenshots/: 1280x800 desktop pages, one 390 px phone view and one
 * dark-theme view. Fails when a page shows an error or lands elsewhere.
 */
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type BrowserContext, chromium, type Locator, type Page } from "playwright-core";
import sharp from "sharp";
import { DEMO_EMAIL, demoPassword } from "../db/seed/demo/people";

/** The demo's password for this run, handed to the seed (DEMO_PASSWORD) and typed on the sign-in page. */
const DEMO_PASSWORD = demoPassword();
import { startServer } from "../tests/e2e/server-process";

const OUT = "docs/screenshots";
const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
const DESKTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };
/** The size each PNG must stay under. */
const MAX_BYTES = 250 * 1024;

interface Shot {
  file: string;
  path: (ids: Ids) => string;
  /** Waits for what the page must show before the picture is taken. */
  ready: (page: Page) => Promise<unknown>;
  /** Scrolled to the top of the picture (below the project's header), when the point of the page is further down. */
  focus?: (page: Page) => Locator;
  /** Done before the picture (opening a menu). */
  act?: (page: Page) => Promise<unknown>;
}
type Ids = { teleop: string };

const teleopName = "Remote teleoperation console";
const h1 = (page: Page) => page.getByRole("heading", { level: 1 }).first().waitFor();
const h2 = (page: Page, name: string) => page.getByRole("heading", { level: 2, name, exact: true }).first();

const editor: Shot = {
  file: "prd-editor.png",
  path: (ids) => `/projects/${ids.teleop}`,
  ready: (p) => p.getByRole("textbox", { name: "PRD document" }).getByRole("heading", { name: "Goals and Success Metrics" }).waitFor(),
};

const DESKTOP_SHOTS: Shot[] = [
  { file: "home.png", path: () => "/home", ready: h1 },
  { file: "projects.png", path: () => "/projects", ready: (p) => p.getByRole("link", { name: teleopName }).first().waitFor() },
  // The PRD beside its comment threads (a mention, a reply, a resolved thread).
  { ...editor, file: "prd-comments.png", focus: (p) => p.locator("#comments-heading") },
  {
    file: "builder.png",
    path: (ids) => `/projects/${ids.teleop}/builder`,
    ready: (p) =>
      p
        .getByText(/fallen carton/)
        .first()
        .waitFor(),
    focus: (p) => h2(p, "Build the PRD in a conversation"),
  },
  {
    file: "ai-user-stories.png",
    path: (ids) => `/projects/${ids.teleop}/ai/documents`,
    ready: (p) => h2(p, "Saved results").waitFor(),
    focus: (p) => h2(p, "Saved results"),
  },
  {
    file: "sharing-review.png",
    path: (ids) => `/projects/${ids.teleop}/sharing`,
    ready: (p) => p.getByText("Operations sign-off").first().waitFor(),
    focus: (p) => h2(p, "Stakeholder reviews"),
  },
  { file: "approvals.png", path: () => "/approvals", ready: (p) => p.getByText(teleopName).first().waitFor() },
  {
    ...editor,
    file: "export.png",
    act: async (p) => {
      await p.locator("details.export-menu > summary").click();
      await p.getByRole("form", { name: "Export this PRD" }).waitFor();
    },
  },
];

async function launch() {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (apt-get install chromium, or set CHROMIUM_PATH)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: ["--headless", "--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync"],
  });
}

async function signIn(context: BrowserContext, baseURL: string) {
  const page = await context.newPage();
  await page.goto(`${baseURL}/sign-in`);
  await page.getByLabel("E-mail").fill(DEMO_EMAIL);
  await page.getByLabel("Password").fill(DEMO_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await page.waitForURL(/\/home/);
  return page;
}

/** Opens the page, waits for its content and the end of loading, and writes a palette PNG. */
async function take(page: Page, baseURL: string, shot: Shot, ids: Ids) {
  const url = `${baseURL}${shot.path(ids)}`;
  const response = await page.goto(url);
  if (!response?.ok()) throw new Error(`${shot.file}: ${url} answered ${response?.status()}`);
  await shot.ready(page);
  await page.waitForLoadState("load");
  await page.evaluate(() => document.fonts.ready);
  if (shot.focus) await shot.focus(page).evaluate((el) => window.scrollTo(0, el.getBoundingClientRect().top + window.scrollY - 24));
  await shot.act?.(page);
  // Leave the caret, focus rings and late layout (diagrams, the editor) out of the picture.
  await page.mouse.move(0, 0);
  if (!shot.act) await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.waitForTimeout(400);
  const raw = await page.screenshot({ fullPage: false });
  let png = await sharp(raw).png({ palette: true, quality: 90, effort: 10, compressionLevel: 9 }).toBuffer();
  if (png.length > MAX_BYTES) png = await sharp(raw).png({ palette: true, colours: 64, effort: 10, compressionLevel: 9 }).toBuffer();
  fs.writeFileSync(path.join(OUT, shot.file), png);
  console.log(`  ${shot.file.padEnd(22)} ${(png.length / 1024).toFixed(0).padStart(4)} KB  ${shot.path(ids)}`);
  await page.evaluate(() => window.scrollTo(0, 0));
}

async function main() {
  if (!fs.existsSync("build/server.js")) throw new Error("No build: run `npm run build` first");
  fs.mkdirSync(OUT, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-screenshots-"));
  const server = await startServer(dataDir);
  const browser = await launch();
  try {
    const seeded = spawnSync(process.execPath, ["--import", "tsx", "db/seed.ts"], {
      env: { ...process.env, DATA_DIR: dataDir, APP_URL: server.baseUrl, DEMO_PASSWORD },
      encoding: "utf8",
    });
    if (seeded.status !== 0) throw new Error(`The demo seed failed:\n${seeded.stdout}${seeded.stderr}`);
    console.log(`Seeded the demo workspace into ${dataDir}; taking screenshots from ${server.baseUrl}:`);

    const desktop = await browser.newContext({ viewport: DESKTOP, colorScheme: "light" });
    const page = await signIn(desktop, server.baseUrl);
    const list = await page.request.get(`${server.baseUrl}/api/projects?limit=50`);
    const { projects } = (await list.json()) as { projects: { id: string; name: string }[] };
    const ids: Ids = { teleop: projects.find((p) => p.name === teleopName)!.id };
    for (const shot of DESKTOP_SHOTS) await take(page, server.baseUrl, shot, ids);

    await take(page, server.baseUrl, editor, ids);
    const phone = await browser.newContext({ viewport: PHONE, deviceScaleFactor: 1, isMobile: true, hasTouch: true, colorScheme: "light" });
    await take(await signIn(phone, server.baseUrl), server.baseUrl, { ...editor, file: "phone.png" }, ids);
    const dark = await browser.newContext({ viewport: DESKTOP, colorScheme: "dark" });
    await take(await signIn(dark, server.baseUrl), server.baseUrl, { ...editor, file: "dark-mode.png" }, ids);
  } finally {
    await browser.close();
    await server.stop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exitCode = 1;
});
