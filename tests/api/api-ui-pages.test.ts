process.env.SUPERADMIN_EMAILS = "api-ui-root@example.com";

import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { ensureSystemTemplates } from "~/domain/templates/system.server";
import { registerBackgroundWork } from "~/jobs/handlers.server";
import { runDueJobs } from "~/jobs/worker.server";
import { useAiMocks } from "../mocks/server";
import { setEnv } from "../support/ai";
import { type ApiResult, ORIGIN, signedUpClient, TestClient } from "../support/client";
import { parseHtml } from "../support/html";
import { type Account, joinOrg, setPlan, signedUpSuperadmin } from "../support/org";

registerBackgroundWork();
useAiMocks();

/**
 * Pages over APIs that had none: the search page's modes and its comment
 * search, the project list's template filter, the marketplace's pricing-tier
 * filter, the superadmin's listing fields of a template, and the API key
 * rate limit. Each control is labelled, changes the result or saves through
 * the API's domain function, and says what is wrong next to itself.
 */

const FORM_HEADERS = { "Content-Type": "application/x-www-form-urlencoded", Host: new URL(ORIGIN).host };
const postForm = (client: TestClient, path: string, fields: Record<string, string>) =>
  client.call("POST", path, { body: new URLSearchParams(fields), headers: FORM_HEADERS });
const doc = (res: ApiResult) => parseHtml(res.text);
/** The text of the element a control's label points at, by the label's text. */
const labelFor = (res: ApiResult, id: string) => doc(res).querySelector(`label[for="${id}"]`)?.textContent?.trim();
const linkTexts = (res: ApiResult, selector: string) => [...doc(res).querySelectorAll(`${selector} h3 a`)].map((a) => a.textContent?.trim());

let owner: Account;
let outsider: Account;

beforeAll(async () => {
  await ensureSystemTemplates();
  owner = await signedUpClient({ name: "Olive Owner" });
  outsider = await signedUpClient({ name: "Oscar Outsider" });
});

describe("the search page: mode", () => {
  it("offers Keyword, Semantic and Hybrid as labelled radio buttons in the GET form, Keyword by default, each explained", async () => {
    const page = await owner.client.get("/search?q=anything");
    expect(page.status).toBe(200);
    const form = doc(page).querySelector('main form.search-form[role="search"][method="get"]')!;
    expect(form.querySelector("fieldset legend")?.textContent).toBe("Mode");
    const radios = [...form.querySelectorAll<HTMLInputElement>('input[type="radio"][name="mode"]')];
    expect(radios.map((r) => r.value)).toEqual(["keyword", "semantic", "hybrid"]);
    expect(radios.map((r) => r.hasAttribute("checked"))).toEqual([true, false, false]);
    for (const r of radios) {
      expect(labelFor(page, r.id)).toMatch(/^(Keyword|Semantic|Hybrid) \S/);
      expect(doc(page).getElementById(r.getAttribute("aria-describedby")!)?.textContent?.length).toBeGreaterThan(20);
    }
  });

  it("says plainly that semantic search is unavailable without an embedding provider, and shows the keyword results", async () => {
    const project = await owner.client.post("/api/projects", { name: "Walrus onboarding" });
    const page = await owner.client.get("/search?q=walrus&mode=semantic");
    expect(page.status).toBe(200);
    expect(doc(page).querySelector<HTMLInputElement>("#search-mode-semantic")?.hasAttribute("checked")).toBe(true);
    expect(doc(page).querySelector('[data-testid="search-notice"]')?.textContent).toMatch(
      /^Semantic search is not available right now\. No embedding provider is configured .* so keyword search was used\.$/,
    );
    expect(doc(page).querySelector(`#projects-heading ~ article a[href="/projects/${project.body.id}"]`)).not.toBeNull();
  });

  it("answers an unknown mode with an error next to the Mode choice and keyword results", async () => {
    await owner.client.post("/api/projects", { name: "Narwhal metrics" });
    const page = await owner.client.get("/search?q=narwhal&mode=fuzzy");
    expect(page.status).toBe(200);
    const fieldset = doc(page).querySelector("fieldset.search-modes")!;
    expect(fieldset.getAttribute("aria-invalid")).toBe("true");
    expect(fieldset.querySelector("#search-mode-error")?.textContent).toBe("Choose Keyword, Semantic or Hybrid. Keyword search was used.");
    expect(doc(page).querySelector<HTMLInputElement>("#search-mode-keyword")?.hasAttribute("checked")).toBe(true);
    expect(linkTexts(page, '[aria-labelledby="projects-heading"]')).toEqual(["Narwhal metrics"]);
  });

  describe("with an embedding provider", () => {
    let searcher: Account;
    let invoices: string;
    beforeAll(async () => {
      setEnv({ OPENAI_API_KEY: "sk-platform-embed-0000000000" });
      searcher = await signedUpClient({ name: "Sema Searcher" });
      await setPlan(searcher.organization.id, "pro");
      invoices = (await searcher.client.post("/api/projects", { name: "Invoice chaser" })).body.id;
      await searcher.client.post(`/api/projects/${invoices}/prd`, {
        content: "# Invoice chaser\n\nAccounts receivable clerks send reminders for unpaid invoices and escalate overdue invoices.",
      });
      const bins = (await searcher.client.post("/api/projects", { name: "Bin finder" })).body.id;
      await searcher.client.post(`/api/projects/${bins}/prd`, { content: "# Bin finder\n\nWarehouse pickers scan bins with handheld scanners." });
      await runDueJobs();
    });
    afterAll(() => setEnv({ OPENAI_API_KEY: undefined }));

    it("passes the chosen mode to the search: semantic and hybrid find by meaning what keyword cannot", async () => {
      const q = "reminders unpaid overdue invoices quixotic";
      const keyword = await searcher.client.get(`/search?${new URLSearchParams({ q, mode: "keyword" })}`);
      expect(linkTexts(keyword, '[aria-labelledby="projects-heading"]')).toEqual([]);
      for (const mode of ["semantic", "hybrid"]) {
        const page = await searcher.client.get(`/search?${new URLSearchParams({ q, mode })}`);
        expect(page.status).toBe(200);
        expect(doc(page).querySelector('[data-testid="search-notice"]'), mode).toBeNull();
        expect(doc(page).querySelector<HTMLInputElement>(`#search-mode-${mode}`)?.hasAttribute("checked")).toBe(true);
        expect(linkTexts(page, '[aria-labelledby="projects-heading"]')[0], mode).toBe("Invoice chaser");
      }
    });
  });
});

describe("the search page: comments", () => {
  let viewer: Account;
  let mine: string;
  let hidden: string;
  beforeAll(async () => {
    mine = (await owner.client.post("/api/projects", { name: "Capybara checkout" })).body.id;
    hidden = (await owner.client.post("/api/projects", { name: "Capybara payroll" })).body.id;
    const foreign = (await outsider.client.post("/api/projects", { name: "Foreign capybara" })).body.id;
    const say = async (client: TestClient, projectId: string, content: string, parentId?: string) => {
      const res = await client.post(`/api/projects/${projectId}/comments`, { content, parentId });
      expect(res.status, res.text).toBe(201);
      return res.body.comment.id as string;
    };
    const thread = await say(owner.client, mine, "The **capybara** retry flow is slow & <b>fragile</b> on Android.");
    await say(owner.client, mine, "Agreed, the capybara retries need a timeout.", thread);
    await say(owner.client, hidden, "Capybara salaries are confidential.");
    const gone = await say(owner.client, mine, "Capybara draft comment, deleted later.");
    expect((await owner.client.delete(`/api/projects/${mine}/comments/${gone}`)).status).toBe(200);
    await say(outsider.client, foreign, "Capybara secrets of another organization.");
    viewer = await joinOrg(owner.organization.id, "viewer", "Vera Viewer");
    const shared = await owner.client.post(`/api/projects/${mine}/collaborators`, { email: viewer.email, role: "viewer" });
    expect(shared.status, shared.text).toBe(201);
  });

  const comments = (res: ApiResult) => [...doc(res).querySelectorAll('[aria-labelledby="comments-heading"] article')];

  it("lists matching comments in their own group, as plain text with the matches marked, linked to their thread", async () => {
    const page = await owner.client.get("/search?q=capybara");
    expect(page.status).toBe(200);
    expect(doc(page).querySelector("#comments-heading")?.textContent).toBe("Comments");
    const found = comments(page);
    expect(found.map((a) => a.querySelector("h3")?.textContent)).toEqual([
      "Comment on Capybara payroll",
      "Reply on Capybara checkout",
      "Comment on Capybara checkout",
    ]);
    const first = found.find((a) => a.textContent?.includes("retry flow"))!;
    const snippet = first.querySelector(".snippet")!;
    expect(snippet.textContent).toBe("The capybara retry flow is slow & fragile on Android.");
    expect([...snippet.querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["capybara"]);
    expect(snippet.querySelectorAll("*")).toHaveLength(1);
    expect(first.querySelector("h3 a")?.getAttribute("href")).toMatch(new RegExp(`^/projects/${mine}#comment-`));
    expect(page.text).not.toContain("deleted later");
  });

  it("never shows another organization's comments, nor a viewer the comments of projects not shared with her", async () => {
    const theirs = await outsider.client.get("/search?q=capybara");
    expect(comments(theirs).map((a) => a.querySelector("h3")?.textContent)).toEqual(["Comment on Foreign capybara"]);
    expect(theirs.text).not.toContain("retry flow");
    expect(theirs.text).not.toContain("salaries");

    const ours = await owner.client.get("/search?q=capybara");
    expect(ours.text).not.toContain("another organization");

    const hers = await viewer.client.get("/search?q=capybara");
    expect(comments(hers).map((a) => a.querySelector("h3 a")?.getAttribute("href")?.split("#")[0])).toEqual([`/projects/${mine}`, `/projects/${mine}`]);
    expect(hers.text).not.toContain("salaries");
    expect(hers.text).not.toContain(hidden);
  });

  it("needs every word of the query in the comment", async () => {
    const page = await owner.client.get("/search?q=capybara+timeout");
    expect(comments(page).map((a) => a.querySelector(".snippet")?.textContent)).toEqual(["Agreed, the capybara retries need a timeout."]);
  });
});

describe("the project list: template filter", () => {
  it("offers the templates in a labelled select and lists only the projects made from the one chosen", async () => {
    const fromApi = await owner.client.post("/api/projects", { name: "Platypus API", templateId: "sys-technical-api" });
    expect(fromApi.status, fromApi.text).toBe(201);
    await owner.client.post("/api/projects", { name: "Platypus plain" });
    const all = await owner.client.get("/projects?search=platypus");
    const select = doc(all).querySelector<HTMLSelectElement>('form[role="search"] select[name="templateId"]')!;
    expect(labelFor(all, select.id)).toBe("Template");
    const options = [...select.options].map((o) => [o.value, o.textContent]);
    expect(options[0]).toEqual(["", "Any"]);
    expect(options.map(([v]) => v)).toContain("sys-technical-api");
    expect(doc(all).querySelectorAll(".projects-table tbody tr")).toHaveLength(2);

    const filtered = await owner.client.get("/projects?search=platypus&templateId=sys-technical-api");
    const names = [...doc(filtered).querySelectorAll(".projects-table tbody .project-link")].map((a) => a.textContent);
    expect(names).toEqual(["Platypus API"]);
    const chosen = doc(filtered).querySelector<HTMLSelectElement>("#f-template")!;
    expect(chosen.querySelector("option[selected]")?.getAttribute("value")).toBe("sys-technical-api");
  });

  it("says next to the filter when the address names a template that is not a choice, and lists without it", async () => {
    const foreignTemplate = await outsider.client.post("/api/admin/templates", { name: "Outsider template", description: "Theirs", category: "general" });
    expect(foreignTemplate.status, foreignTemplate.text).toBe(201);
    const page = await owner.client.get(`/projects?search=platypus&templateId=${foreignTemplate.body.id}`);
    expect(page.status).toBe(200);
    const select = doc(page).querySelector("#f-template")!;
    expect(select.getAttribute("aria-invalid")).toBe("true");
    expect(doc(page).querySelector("#f-template-error")?.textContent).toBe("That template is not one of the choices: pick one from the list.");
    expect(page.text).not.toContain("Outsider template");
    expect(doc(page).querySelectorAll(".projects-table tbody tr")).toHaveLength(2);
  });
});

describe("templates: marketplace pricing tier and the superadmin's listing fields", () => {
  let root: Account;
  let premium: { id: string };
  let orgTemplate: { id: string };
  beforeAll(async () => {
    root = await signedUpSuperadmin({ email: "api-ui-root@example.com", name: "Root" });
    const made = await root.client.post("/api/admin/templates", {
      name: "Premium launch kit",
      description: "For launches",
      category: "launch",
      templateType: "system",
      pricingTier: "premium",
    });
    expect(made.status, made.text).toBe(201);
    premium = made.body;
    await setPlan(owner.organization.id, "pro");
    orgTemplate = (await owner.client.post("/api/admin/templates", { name: "Owner org template", description: "Ours", category: "general" })).body;
  });

  const cardNames = (res: ApiResult) => [...doc(res).querySelectorAll(".template-card h2 a")].map((a) => a.textContent);

  it("the marketplace filters by a labelled pricing-tier select in its GET form", async () => {
    const all = await new TestClient("10.77.0.1").get("/marketplace");
    expect(all.status).toBe(200);
    const select = doc(all).querySelector<HTMLSelectElement>('form[method="get"] select[name="pricingTier"]')!;
    expect(labelFor(all, select.id)).toBe("Pricing tier");
    expect([...select.options].map((o) => [o.value, o.textContent])).toEqual([
      ["", "Any"],
      ["free", "Free"],
      ["premium", "Premium"],
    ]);
    expect(cardNames(all)).toContain("Standard PRD");
    expect(cardNames(all)).toContain("Premium launch kit");

    const filtered = await owner.client.get("/marketplace?pricingTier=premium");
    expect(cardNames(filtered)).toEqual(["Premium launch kit"]);
    const free = await owner.client.get("/marketplace?pricingTier=free");
    expect(cardNames(free)).toContain("Standard PRD");
    expect(cardNames(free)).not.toContain("Premium launch kit");
  });

  it("the marketplace says next to the filter when a tier has no templates, and lists them all", async () => {
    const page = await owner.client.get("/marketplace?pricingTier=gold");
    expect(page.status).toBe(200);
    expect(doc(page).querySelector("#m-pricing")?.getAttribute("aria-invalid")).toBe("true");
    expect(doc(page).querySelector("#m-pricing-error")?.textContent).toBe(
      "No template on the marketplace has the pricing tier “gold”. Pick one from the list.",
    );
    expect(cardNames(page)).toContain("Premium launch kit");
    expect(cardNames(page)).toContain("Standard PRD");
  });

  it("a superadmin sees the listing fields, labelled, and saves them through the template update", async () => {
    const page = await root.client.get(`/templates/${premium.id}`);
    expect(page.status).toBe(200);
    expect(doc(page).querySelector("#listing-heading")?.textContent).toBe("Platform listing");
    expect(labelFor(page, "listing-active")).toBe("Active");
    expect(labelFor(page, "listing-featured")).toBe("Featured");
    expect(labelFor(page, "listing-pricingTier")).toBe("Pricing tier");
    expect(doc(page).querySelector<HTMLInputElement>("#listing-active")?.hasAttribute("checked")).toBe(true);
    expect(doc(page).querySelector<HTMLInputElement>("#listing-pricingTier")?.getAttribute("value")).toBe("premium");

    // Featured ticked, Active unticked (sends nothing), a new tier.
    const saved = await postForm(root.client, `/templates/${premium.id}`, { intent: "listing", isFeatured: "true", pricingTier: " Enterprise " });
    expect(saved.status, saved.text.slice(0, 300)).toBe(200);
    expect(doc(saved).querySelector('[role="status"]')?.textContent).toBe("Listing saved.");
    const stored = await root.client.get(`/api/templates/${premium.id}`);
    expect(stored.body).toMatchObject({ isActive: false, isFeatured: true, pricingTier: "enterprise" });
    const versions = await root.client.get(`/api/templates/${premium.id}/versions`);
    expect(versions.body.versions[0].note).toBe("Listing changed");
    // Inactive: gone from the marketplace.
    expect(cardNames(await owner.client.get("/marketplace"))).not.toContain("Premium launch kit");

    const back = await postForm(root.client, `/templates/${premium.id}`, { intent: "listing", isActive: "true", pricingTier: "premium" });
    expect(back.status).toBe(200);
    expect((await root.client.get(`/api/templates/${premium.id}`)).body).toMatchObject({ isActive: true, isFeatured: false, pricingTier: "premium" });
  });

  it("shows a bad pricing tier next to its field and saves nothing", async () => {
    const res = await postForm(root.client, `/templates/${premium.id}`, { intent: "listing", isActive: "true", pricingTier: "  " });
    expect(res.status).toBe(400);
    expect(doc(res).querySelector("#listing-pricingTier")?.getAttribute("aria-invalid")).toBe("true");
    expect(doc(res).querySelector("#listing-pricingTier-error")?.textContent).toBe("Enter a pricing tier, such as free or premium");
    const tooLong = await postForm(root.client, `/templates/${premium.id}`, { intent: "listing", isActive: "true", pricingTier: "x".repeat(41) });
    expect(doc(tooLong).querySelector("#listing-pricingTier-error")?.textContent).toBe("Pricing tier must be at most 40 characters");
    expect((await root.client.get(`/api/templates/${premium.id}`)).body.pricingTier).toBe("premium");
  });

  it("an owner who is not a superadmin neither sees the listing fields nor can post them", async () => {
    const page = await owner.client.get(`/templates/${orgTemplate.id}`);
    expect(page.status).toBe(200);
    expect(doc(page).querySelector("#edit-heading")).not.toBeNull();
    expect(doc(page).querySelector("#listing-heading")).toBeNull();
    expect(doc(page).querySelector('[name="isFeatured"], [name="pricingTier"]')).toBeNull();
    expect(doc(await owner.client.get(`/templates/${premium.id}`)).querySelector("#listing-heading")).toBeNull();

    for (const id of [orgTemplate.id, premium.id]) {
      const posted = await postForm(owner.client, `/templates/${id}`, { intent: "listing", isFeatured: "true", pricingTier: "premium" });
      expect(posted.status, id).toBe(403);
    }
    expect((await owner.client.get(`/api/templates/${orgTemplate.id}`)).body).toMatchObject({ isActive: true, isFeatured: false, pricingTier: "free" });
    expect((await owner.client.get(`/api/templates/${premium.id}`)).body).toMatchObject({ isActive: true, isFeatured: false, pricingTier: "premium" });
  });
});

describe("the API keys page: rate limit", () => {
  it("on Enterprise: a labelled field with its range, saved on the key and shown in the table", async () => {
    const admin = await signedUpClient({ name: "Ada Admin" });
    await setPlan(admin.organization.id, "enterprise");
    const page = await admin.client.get("/settings/api-keys");
    const input = doc(page).querySelector<HTMLInputElement>("#field-rateLimit")!;
    expect(labelFor(page, "field-rateLimit")).toBe("Rate limit (requests per minute, optional)");
    expect([input.type, input.min, input.max]).toEqual(["number", "1", "100000"]);
    expect(doc(page).querySelector("#field-rateLimit-hint")?.textContent).toContain(
      "A whole number from 1–100,000. Leave empty for the default of 60 per minute.",
    );

    expect((await postForm(admin.client, "/settings/api-keys", { intent: "create", name: "Busy CI", rateLimit: "1500", scopes: "read" })).status).toBe(302);
    expect((await postForm(admin.client, "/settings/api-keys", { intent: "create", name: "Quiet CI", rateLimit: "", scopes: "read" })).status).toBe(302);
    const rows = await db.selectFrom("apiKeys").select(["name", "rateLimit"]).where("orgId", "=", admin.organization.id).orderBy("name").execute();
    expect(rows).toEqual([
      { name: "Busy CI", rateLimit: 1500 },
      { name: "Quiet CI", rateLimit: null },
    ]);
    const listed = await admin.client.get("/settings/api-keys");
    const headers = [...doc(listed).querySelectorAll("table thead th")].map((th) => th.textContent);
    const column = headers.indexOf("Rate limit");
    expect(column).toBeGreaterThan(0);
    const byName = Object.fromEntries(
      [...doc(listed).querySelectorAll("table tbody tr")].map((tr) => [tr.children[0]?.textContent, tr.children[column]?.textContent]),
    );
    expect(byName).toEqual({ "Busy CI": "1,500 per minute", "Quiet CI": "60 per minute (default)" });
  });

  it("shows an out-of-range or non-numeric limit next to the field and creates no key", async () => {
    const admin = await signedUpClient({ name: "Ada Admin" });
    await setPlan(admin.organization.id, "enterprise");
    for (const rateLimit of ["0", "100001", "2.5", "lots"]) {
      const res = await postForm(admin.client, "/settings/api-keys", { intent: "create", name: `Bad ${rateLimit}`, rateLimit, scopes: "read" });
      expect(res.status, rateLimit).toBe(400);
      expect(doc(res).querySelector("#field-rateLimit")?.getAttribute("aria-invalid"), rateLimit).toBe("true");
      expect(doc(res).querySelector("#field-rateLimit-error")?.textContent, rateLimit).toBe(
        "Rate limit must be a whole number of requests per minute from 1 to 100,000",
      );
      expect(doc(res).querySelector<HTMLInputElement>("#field-rateLimit")?.getAttribute("value"), rateLimit).toBe(rateLimit);
    }
    expect(await db.selectFrom("apiKeys").select("id").where("orgId", "=", admin.organization.id).execute()).toEqual([]);
  });

  it("below Enterprise: explains the default limit instead of the field, and refuses a posted limit", async () => {
    const admin = await signedUpClient({ name: "Pat Pro" });
    await setPlan(admin.organization.id, "pro");
    const page = await admin.client.get("/settings/api-keys");
    expect(doc(page).querySelector("#field-rateLimit")).toBeNull();
    expect(doc(page).querySelector("#rate-limit-note")?.textContent).toBe(
      "Each key may make 60 requests per minute. A custom limit per key needs the Enterprise plan.",
    );
    const res = await postForm(admin.client, "/settings/api-keys", { intent: "create", name: "Sneaky", rateLimit: "500", scopes: "read" });
    expect(res.status).toBe(403);
    expect(doc(res).querySelector("#form-error")?.textContent).toBe("A custom per-key rate limit needs the Enterprise plan");
    expect(await db.selectFrom("apiKeys").select("id").where("orgId", "=", admin.organization.id).execute()).toEqual([]);
  });
});
