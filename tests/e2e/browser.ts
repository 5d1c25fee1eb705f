import { afterAll, beforeAll } from "vitest";
import fs from "node:fs";
import { chromium, type Browser, type BrowserContext, type Page } from "playwright-core";

export const CHROMIUM = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

/** `extraArgs`: more Chromium switches, e.g. a fake microphone (--use-fake-device-for-media-stream). */
export async function launch(extraArgs: string[] = []): Promise<Browser> {
  if (!fs.existsSync(CHROMIUM)) throw new Error(`Chromium not found at ${CHROMIUM} (apt-get install chromium)`);
  return chromium.launch({
    executablePath: CHROMIUM,
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
      ...extraArgs,
    ],
  });
}

let visitor = 0;

/**
 * A fresh browser context; fails the test on any page error. Each context
 * is a different visitor (its own client address through the trusted
 * proxy header), as separate people would be: the per-IP sign-up rate limit
 * then applies per journey, not to the whole suite.
 */
export async function newPage(browser: Browser, options: { javaScriptEnabled: boolean; baseURL: string }) {
  visitor += 1;
  const context: BrowserContext = await browser.newContext({
    ...options,
    viewport: { width: 1280, height: 800 },
    extraHTTPHeaders: { "X-Forwarded-For": `10.${(process.pid >> 8) % 250}.${process.pid % 250}.${visitor}` },
  });
  const page: Page = await context.newPage();
  const errors: string[] = [];
  // A test that navigates (page.goto) while Remix is still reading a revalidation
  // response aborts that fetch; Remix leaves the abort unhandled. It is the test
  // leaving the page mid-request, not an error of the page, so it is not counted.
  // Nor is React 18's "Root did not complete" (#345), which Remix's single fetch
  // raises now and then when a page is left while it renders (remix-run/remix#10214,
  // remix-run/react-router#12763, open upstream; about 1 run of slack.e2e.ts in 4 here).
  page.on("pageerror", (e) => {
    if (e.message === "BodyStreamBuffer was aborted" || e.message.startsWith("Minified React error #345;")) return;
    errors.push(e.message);
  });
  return { context, page, errors };
}

export function screenshot(page: Page, name: string) {
  if (!process.env.E2E_SCREENSHOTS) return;
  fs.mkdirSync("tests/e2e/screenshots", { recursive: true });
  return page.screenshot({ path: `tests/e2e/screenshots/${name}.png`, fullPage: true });
}

/** One Chromium for the whole test file, closed when it ends. */
export function useBrowser() {
  const holder: { browser: Browser } = {} as never;
  beforeAll(async () => {
    holder.browser = await launch();
  });
  afterAll(async () => {
    await holder.browser?.close();
  });
  return holder;
}
