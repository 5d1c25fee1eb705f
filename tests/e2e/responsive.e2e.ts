import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import AxeBuilder from "@axe-core/playwright";
import type { Browser, BrowserContext, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launch } from "./browser";
import { type ServerProcess, Session, startServer } from "./server-process";

/**
 * Every page that renders HTML, on a phone (390 px) and on a desktop (1280 px),
 * JavaScript on: no page may be wider than the viewport (horizontal scrolling
 * of the whole page), and axe-core finds no serious or critical violation in
 * the light and in the dark colour scheme (docs/ui.md, "Small screens").
 *
 * Its own server (enterprise plan, one superadmin made with the operator tool
 * build/admin-create.js, as an operator would), filled through the API so that
 * each page shows rows, cards and long content rather than its empty state.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 800 };
const IP = "10.77.0.1";

interface Data {
  projectId: string;
  templateId: string;
  webhookId: string;
  incomingId: string;
  scheduleId: string;
  checkoutPath: string;
  sharePath: string;
  invitePath: string;
  reviewPath: string;
}

interface PageSpec {
  name: string;
  path: (d: Data) => string;
  /** Visited signed out (public and sign-in pages). */
  anonymous?: boolean;
  /** What shows the page is drawn (the default: its first h1). */
  ready?: (page: Page) => Promise<unknown>;
}

const editorReady = (page: Page) => page.getByRole("textbox", { name: "PRD document" }).waitFor();

const PAGES: PageSpec[] = [
  // Public and sign-in pages, signed out.
  { name: "Landing", path: () => "/", anonymous: true },
  { name: "Marketplace", path: () => "/marketplace", anonymous: true },
  { name: "Marketplace template", path: () => "/marketplace/sys-ai-ml-feature", anonymous: true },
  { name: "Pricing", path: () => "/pricing", anonymous: true },
  { name: "Sign in", path: () => "/sign-in", anonymous: true },
  { name: "Sign up", path: () => "/sign-up", anonymous: true },
  { name: "Forgot password", path: () => "/forgot-password", anonymous: true },
  { name: "Reset password", path: () => "/reset-password?token=not-a-real-token", anonymous: true },
  { name: "Verify e-mail", path: () => "/verify-email?token=not-a-real-token", anonymous: true },
  { name: "Invitation", path: (d) => d.invitePath, anonymous: true },
  { name: "Unsubscribe", path: () => "/unsubscribe", anonymous: true },
  { name: "Share link", path: (d) => d.sharePath, anonymous: true },
  { name: "Personal review link", path: (d) => d.reviewPath, anonymous: true },
  { name: "Page not found", path: () => "/no-such-page", anonymous: true },
  // Signed in.
  { name: "Home", path: () => "/home" },
  { name: "Onboarding", path: () => "/onboarding" },
  { name: "Projects", path: () => "/projects" },
  { name: "New project", path: () => "/projects/new" },
  { name: "Project: Document", path: (d) => `/projects/${d.projectId}`, ready: editorReady },
  { name: "Project: AI builder", path: (d) => `/projects/${d.projectId}/builder` },
  { name: "Project: AI review & score", path: (d) => `/projects/${d.projectId}/ai` },
  { name: "Project: AI improve", path: (d) => `/projects/${d.projectId}/ai/improve` },
  { name: "Project: AI stories & specs", path: (d) => `/projects/${d.projectId}/ai/documents` },
  { name: "Project: AI roadmap", path: (d) => `/projects/${d.projectId}/ai/roadmap` },
  { name: "Project: AI diagrams", path: (d) => `/projects/${d.projectId}/ai/diagrams`, ready: (p) => p.locator(".diagram svg").first().waitFor() },
  { name: "Project: AI launch content", path: (d) => `/projects/${d.projectId}/ai/launch` },
  { name: "Project: Versions", path: (d) => `/projects/${d.projectId}/versions` },
  { name: "Project: Files", path: (d) => `/projects/${d.projectId}/files` },
  { name: "Project: Sharing & people", path: (d) => `/projects/${d.projectId}/sharing` },
  { name: "Project: Activity", path: (d) => `/projects/${d.projectId}/activity` },
  { name: "Project: Settings", path: (d) => `/projects/${d.projectId}/settings` },
  { name: "Project: Send to tracker", path: (d) => `/projects/${d.projectId}/tracker` },
  { name: "Search", path: () => "/search?q=checkout" },
  { name: "Templates", path: () => "/templates" },
  { name: "Template", path: (d) => `/templates/${d.templateId}` },
  { name: "New template", path: () => "/templates/new" },
  { name: "Marketplace (signed in)", path: () => "/marketplace" },
  { name: "Pricing (signed in)", path: () => "/pricing" },
  { name: "Exports", path: () => "/exports" },
  { name: "Scheduled exports", path: () => "/exports/schedules" },
  { name: "Scheduled export", path: (d) => `/exports/schedules/${d.scheduleId}` },
  { name: "Notifications", path: () => "/notifications" },
  { name: "Approvals", path: () => "/approvals" },
  { name: "Settings: Account", path: () => "/settings" },
  { name: "Settings: Security", path: () => "/settings/security" },
  { name: "Settings: AI providers", path: () => "/settings/ai" },
  { name: "Settings: Memory", path: () => "/settings/memory" },
  { name: "Settings: Notifications", path: () => "/settings/notifications" },
  { name: "Settings: Integrations", path: () => "/settings/integrations" },
  { name: "Settings: Issue trackers", path: () => "/settings/trackers" },
  { name: "Settings: Slack", path: () => "/settings/slack" },
  { name: "Settings: AI agents (MCP)", path: () => "/settings/mcp" },
  { name: "Settings: API keys", path: () => "/settings/api-keys" },
  { name: "Settings: Webhooks", path: () => "/settings/webhooks" },
  { name: "Settings: Webhook", path: (d) => `/settings/webhooks/${d.webhookId}` },
  { name: "Settings: Incoming webhooks", path: () => "/settings/incoming-webhooks" },
  { name: "Settings: Incoming webhook events", path: (d) => `/settings/incoming-webhooks?events=${d.incomingId}` },
  { name: "Settings: Outbox", path: () => "/settings/outbox" },
  { name: "Admin: Dashboard", path: () => "/admin/dashboard" },
  { name: "Admin: All projects", path: () => "/admin/projects" },
  { name: "Admin: Members", path: () => "/admin/members" },
  { name: "Admin: Invitations", path: () => "/admin/invitations" },
  { name: "Admin: Teams", path: () => "/admin/teams" },
  { name: "Admin: Organization settings", path: () => "/admin/settings" },
  { name: "Admin: Branding", path: () => "/admin/branding" },
  { name: "Admin: Domain", path: () => "/admin/domain" },
  { name: "Admin: Billing", path: () => "/admin/billing" },
  { name: "Admin: Plans", path: () => "/admin/plans" },
  { name: "Admin: Checkout", path: (d) => d.checkoutPath },
  { name: "Admin: Audit log", path: () => "/admin/audit" },
  { name: "Admin: IP allowlist", path: () => "/admin/ip-allowlist" },
  { name: "Admin: Approval workflows", path: () => "/admin/approvals" },
  { name: "Admin: Danger zone", path: () => "/admin/danger" },
  { name: "Platform: Feature flags", path: () => "/admin/flags" },
  { name: "Platform: Template reviews", path: () => "/admin/submissions" },
];

// A PRD with what makes pages too wide: a long URL, a long word, a wide table and a long code line.
const PRD = [
  "# Responsive checkout",
  "",
  "## Problem",
  "Paying at the kiosk takes 9 steps. See https://example.com/research/2026/checkout/kiosk-observations-and-interview-notes-from-the-field?utm_source=prd-studio-responsive-check for the notes.",
  "",
  "Supercalifragilisticexpialidocious-internationalization-configuration-identifier names the setting.",
  "",
  "## Goals",
  "- Pay in one tap",
  "- Receipts by e-mail",
  "",
  "## Requirements",
  "",
  "| Requirement | Priority | Owner | Acceptance criteria | Notes and links |",
  "|---|---|---|---|---|",
  "| Contactless payment at every kiosk | high | Payments team | A tap completes the order in under two seconds | https://example.com/payments/contactless-specification-v3 |",
  "| Receipt by e-mail | medium | Growth team | The receipt arrives within a minute | Uses the existing mail outbox |",
  "",
  "```",
  'curl -X POST https://api.example.com/v1/orders -H \'Content-Type: application/json\' -d \'{"items":[{"sku":"burger-classic","quantity":2}],"payment":"contactless"}\'',
  "```",
  "",
].join("\n");

let server: ServerProcess;
let dataDir: string;
let browser: Browser;
let data: Data;
const contexts: Record<string, BrowserContext> = {};

function tool(name: string, ...args: string[]) {
  const run = spawnSync(process.execPath, [`build/${name}.js`, ...args], {
    encoding: "utf8",
    env: { PATH: process.env.PATH!, HOME: dataDir, NODE_ENV: "production", DATA_DIR: dataDir, DEFAULT_PLAN: "enterprise" } as unknown as NodeJS.ProcessEnv,
  });
  if (run.status !== 0) throw new Error(`${name} failed: ${run.stderr}`);
  return run.stdout;
}

async function ok(res: Promise<{ status: number; body: any }>, what: string) {
  const r = await res;
  if (r.status >= 300) throw new Error(`${what}: ${r.status} ${JSON.stringify(r.body)}`);
  return r.body;
}

/** An AI tool's answer (a server-sent event stream), read to its end. */
async function stream(s: Session, route: string, body: unknown) {
  const res = await fetch(`${s.baseUrl}${route}`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: s.baseUrl, "X-Forwarded-For": s.ip, Cookie: s.cookie },
    body: JSON.stringify(body),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${route}: ${res.status} ${text}`);
}

async function fill(s: Session): Promise<Data> {
  const project = await ok(
    s.call("POST", "/api/projects", { name: "Responsive checkout", description: "Let guests pay at the kiosk in one tap, on any screen." }),
    "project",
  );
  const projectId: string = project.id;
  const other = await ok(s.call("POST", "/api/projects", { name: "Offline field notes with a rather long project name for narrow screens" }), "project 2");
  await ok(s.call("POST", `/api/projects/${projectId}/prd`, { content: PRD.replace("one tap", "a single tap") }), "prd v1");
  await ok(s.call("POST", `/api/projects/${projectId}/prd`, { content: PRD }), "prd v2");
  await ok(
    s.call("POST", `/api/projects/${projectId}/comments`, {
      content: "Which 9 steps exactly? https://example.com/a/very/long/link/to/the/kiosk/journey/map/and/its/annotated/steps",
      section: "Problem",
    }),
    "comment",
  );
  const share = await ok(s.call("POST", `/api/projects/${projectId}/share`, {}), "share");
  const review = await ok(
    s.call("POST", `/api/projects/${projectId}/stakeholder-views`, {
      name: "Finance review",
      stakeholderName: "Grace Finance",
      stakeholderEmail: "grace@example.com",
      requestReview: true,
    }),
    "stakeholder view",
  );
  await ok(
    s.call("POST", `/api/projects/${projectId}/links`, { title: "Kiosk research", url: "https://example.com/research/kiosk-observations-2026" }),
    "link",
  );
  await ok(s.call("POST", `/api/projects/${projectId}/links`, { targetProjectId: other.id, linkType: "relates_to" }), "project link");
  await ok(s.call("POST", `/api/projects/${projectId}/folders`, { name: "Research" }), "folder");
  const form = new FormData();
  form.append(
    "file",
    new Blob(["# Interview notes\n\nGuests want to pay in one tap.\n"], { type: "text/markdown" }),
    "interview-notes-with-a-long-file-name-2026.md",
  );
  const upload = await fetch(`${s.baseUrl}/api/projects/${projectId}/files`, {
    method: "POST",
    headers: { Origin: s.baseUrl, "X-Forwarded-For": s.ip, Cookie: s.cookie },
    body: form,
  });
  if (upload.status >= 300) throw new Error(`upload: ${upload.status} ${await upload.text()}`);

  // AI outputs (the offline drafter answers: no provider key).
  await stream(s, "/api/ai/coach", { prdContent: PRD, projectId });
  await ok(s.call("POST", `/api/projects/${projectId}/score`, {}), "score");
  await stream(s, "/api/ai/improve", { content: "Paying at the kiosk takes 9 steps.", improvementType: "make_concise", projectId });
  await stream(s, "/api/ai/user-stories", { content: PRD, source: "prd", projectId });
  await ok(s.call("POST", "/api/ai/roadmap", { prdContent: PRD, teamSize: "small", methodology: "agile", projectId }), "roadmap");
  await stream(s, "/api/ai/wireframe", { content: PRD, diagramType: "user_flow", projectId });
  await stream(s, "/api/ai/launch-content", { content: PRD, contentType: "changelog", projectId });

  // Settings and administration.
  await ok(s.call("POST", "/api/admin/rest-api-keys", { name: "Continuous integration" }), "api key");
  const { webhook } = await ok(
    s.call("POST", "/api/admin/webhooks", { name: "Chat relay", url: "https://example.com/hooks/prd-studio/responsive", events: ["*"] }),
    "webhook",
  );
  const { incomingWebhook } = await ok(s.call("POST", "/api/admin/incoming-webhooks", { name: "Deploy bot", action: "notify_members" }), "incoming webhook");
  const posted = await fetch(incomingWebhook.url, {
    method: "POST",
    headers: { "Content-Type": "application/json", "X-Forwarded-For": s.ip },
    body: JSON.stringify({ title: "Kiosk build deployed", text: "Version 1.4 is live in the staging store.", link: `/projects/${projectId}` }),
  });
  if (posted.status >= 300) throw new Error(`incoming post: ${posted.status} ${await posted.text()}`);
  await ok(
    s.call("POST", "/api/memory", { memoryType: "preference", category: "style", content: "Write acceptance criteria as Given/When/Then.", importance: 7 }),
    "memory",
  );
  await ok(s.call("POST", "/api/admin/teams", { name: "Payments", description: "Kiosk payments and receipts" }), "team");
  const { invitation } = await ok(s.call("POST", "/api/invitations", { email: "alan@example.com", role: "member" }), "invitation");
  const link = await ok(s.call("GET", `/api/invitations/${invitation.id}/link`), "invitation link");
  await ok(s.call("POST", "/api/admin/ip-allowlist", { cidr: "10.0.0.0/8", label: "Office and test browsers" }), "allowlist");
  await ok(s.call("POST", "/api/organization/domain", { domain: "prd.example.com" }), "domain");
  // Before the approval workflow, which would hold it.
  const schedule = await ok(
    s.call("POST", "/api/scheduled-exports", {
      projectId,
      scheduleType: "weekly",
      format: "html",
      timezone: "Europe/London",
      deliveryMethod: "email",
      recipients: ["team@example.com"],
    }),
    "schedule",
  );
  const scheduleId: string = schedule.schedule.id;
  await s.call("POST", `/api/scheduled-exports/${scheduleId}/run`, {});
  const me = await ok(s.call("GET", "/api/auth/me"), "me");
  await ok(s.call("POST", "/api/admin/approval-workflows", { name: "Export review", triggerType: "prd_export", approverIds: [me.user.id] }), "workflow");
  await s.call("POST", "/api/export/html", { projectId }); // held for approval: an approval request
  const template = await ok(
    s.call("POST", "/api/admin/templates", {
      name: "Kiosk feature",
      description: "A PRD for a feature of the self-service kiosk.",
      category: "product",
      systemPrompt: "Write for kiosk teams.",
    }),
    "template",
  );
  const templateId: string = template.id;
  await ok(s.call("POST", "/api/template-submissions", { templateId, notes: "Please publish: our kiosk teams use it every week." }), "submission");
  await ok(s.call("POST", "/api/feature-flags", { key: "responsive-shell", description: "The phone layout of the signed-in shell", enabled: true }), "flag");
  const checkout = await ok(s.call("POST", "/api/billing/checkout", { planId: "pro", interval: "annual" }), "checkout");

  return {
    projectId,
    templateId,
    webhookId: webhook.id,
    incomingId: incomingWebhook.id,
    scheduleId,
    checkoutPath: new URL(checkout.checkout_url, s.baseUrl).pathname,
    sharePath: new URL(share.shareUrl, s.baseUrl).pathname,
    invitePath: new URL(link.url, s.baseUrl).pathname,
    reviewPath: new URL(review.view.reviewUrl, s.baseUrl).pathname,
  };
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-e2e-responsive-"));
  const email = "root@example.com";
  const created = tool("admin-create", email, "Rosa Responsive");
  const password = created.match(/Password \(shown once[^)]*\): (\S+)/)?.[1];
  if (!password) throw new Error(`no password in: ${created}`);
  [server, browser] = await Promise.all([startServer(dataDir, { SUPERADMIN_EMAILS: email, DEFAULT_PLAN: "enterprise" }), launch()]);
  const s = new Session(server.baseUrl, IP);
  await s.signIn(email, password);
  data = await fill(s);
  const cookies = s.cookie.split("; ").map((c) => {
    const [name, ...value] = c.split("=");
    return { name: name!, value: value.join("="), url: server.baseUrl };
  });
  for (const scheme of ["light", "dark"] as const) {
    for (const signedIn of [false, true]) {
      const context = await browser.newContext({
        baseURL: server.baseUrl,
        colorScheme: scheme,
        viewport: scheme === "light" ? PHONE : DESKTOP,
        extraHTTPHeaders: { "X-Forwarded-For": `10.77.${scheme === "light" ? 1 : 2}.${signedIn ? 1 : 2}` },
      });
      context.setDefaultTimeout(15_000);
      if (signedIn) await context.addCookies(cookies);
      contexts[`${scheme}-${signedIn ? "in" : "out"}`] = context;
    }
  }
}, 120_000);

afterAll(async () => {
  await browser?.close();
  await server?.stop();
  if (dataDir) fs.rmSync(dataDir, { recursive: true, force: true });
});

/** Wider than the viewport: the page's scroll width, and the elements that stick out (to name them in the failure). */
async function overflow(page: Page) {
  return page.evaluate(() => {
    const width = window.innerWidth;
    const scrollWidth = document.documentElement.scrollWidth;
    if (scrollWidth <= width + 1) return null;
    const name = (el: Element) => `${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ""}${el.classList.length ? `.${[...el.classList].join(".")}` : ""}`;
    // Inside a box that scrolls or clips, an element does not widen the page.
    const clipped = (el: Element) => {
      for (let a = el.parentElement; a && a !== document.body; a = a.parentElement) if (getComputedStyle(a).overflowX !== "visible") return true;
      return false;
    };
    const out = [...document.body.querySelectorAll("*")].filter((el) => {
      const r = el.getBoundingClientRect();
      return r.width > 0 && r.right > width + 1 && !clipped(el);
    });
    const outSet = new Set(out);
    // The innermost ones: those with no child that sticks out too.
    const wide = out
      .filter((el) => ![...el.children].some((c) => outSet.has(c)))
      .slice(0, 6)
      .map((el) => `${name(el)} (right ${Math.round(el.getBoundingClientRect().right)})`);
    return { scrollWidth, width, wide };
  });
}

async function open(page: Page, spec: PageSpec) {
  const url = spec.path(data);
  const res = await page.goto(url, { waitUntil: "load" });
  if (spec.name !== "Page not found" && (!res || res.status() >= 400)) throw new Error(`${spec.name} (${url}): HTTP ${res?.status()}`);
  if (new URL(page.url()).pathname.startsWith("/sign-in") && spec.name !== "Sign in") throw new Error(`${spec.name} (${url}) redirected to sign-in`);
  await (spec.ready ?? ((p: Page) => p.locator("h1, h2").first().waitFor()))(page);
}

/** axe-core's serious and critical violations, each with its rule, its targets and, for contrast, the colours. */
async function axe(page: Page) {
  const { violations } = await new AxeBuilder({ page }).options({ resultTypes: ["violations"] }).analyze();
  return violations
    .filter((v) => v.impact === "serious" || v.impact === "critical")
    .map((v) => {
      const nodes = v.nodes.slice(0, 8).map((n) => {
        const c = n.any.find((check) => check.id === "color-contrast")?.data as { fgColor?: string; bgColor?: string; contrastRatio?: number } | undefined;
        return `${n.target.join(" ")}${c?.fgColor ? ` (${c.fgColor} on ${c.bgColor}: ${c.contrastRatio}:1)` : ""}`;
      });
      return `${v.id} (${v.impact}): ${nodes.join(", ")}${v.nodes.length > 8 ? ` … ${v.nodes.length} in all` : ""}`;
    });
}

/** One tab per context, reused from page to page. */
const tabs: Record<string, Page> = {};
async function tab(key: string) {
  tabs[key] ??= await contexts[key]!.newPage();
  return tabs[key]!;
}

describe("every page fits a phone and passes axe", () => {
  for (const spec of PAGES) {
    it(spec.name, async () => {
      const who = spec.anonymous ? "out" : "in";
      const light = await tab(`light-${who}`);
      const dark = await tab(`dark-${who}`);
      const problems: string[] = [];
      const errors: string[] = [];
      const onError = (e: Error) => errors.push(e.message);
      light.on("pageerror", onError);
      try {
        await Promise.all([
          (async () => {
            // Light: the phone, then the same page on a desktop; axe with every rule on the phone.
            await light.setViewportSize(PHONE);
            await open(light, spec);
            const phone = await overflow(light);
            if (phone) problems.push(`wider than the viewport at ${PHONE.width} px: ${phone.scrollWidth} px; sticking out: ${phone.wide.join(", ")}`);
            for (const v of await axe(light)) problems.push(`axe, light, ${PHONE.width} px: ${v}`);
            await light.setViewportSize(DESKTOP);
            const desktop = await overflow(light);
            if (desktop) problems.push(`wider than the viewport at ${DESKTOP.width} px: ${desktop.scrollWidth} px; sticking out: ${desktop.wide.join(", ")}`);
            // The sidebar, hidden behind the Menu button on the phone, is the same on every signed-in page: every rule once.
            if (spec.name === "Home") for (const v of await axe(light)) problems.push(`axe, light, ${DESKTOP.width} px: ${v}`);
          })(),
          (async () => {
            // Dark, on a desktop: every rule again.
            await open(dark, spec);
            for (const v of await axe(dark)) problems.push(`axe, dark, ${DESKTOP.width} px: ${v}`);
          })(),
        ]);
      } finally {
        light.off("pageerror", onError);
      }
      expect(problems, `${spec.name} (${spec.path(data)})`).toEqual([]);
      expect(errors, `${spec.name}: page errors`).toEqual([]);
    });
  }
});
