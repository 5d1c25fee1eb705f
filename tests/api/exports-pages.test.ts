import { unzipSync } from "fflate";
import { afterEach, beforeAll, describe, expect, it } from "vitest";
import { setFlagResolver } from "~/domain/flags/flags.server";
import { signedUpClient } from "../support/client";
import { type Account, joinOrg, setPlan } from "../support/org";
import { pageText } from "../support/page";
import { newProjectWithPrd, rawCall } from "./exports-support";

/** The export pages driven like a browser without JavaScript: plain forms, attachments, redirects with messages. */

const form = (fields: [string, string][]) => new URLSearchParams(fields);
const postForm = (a: Account, path: string, fields: [string, string][], headers: Record<string, string> = {}) =>
  rawCall(a.client, "POST", path, { form: form(fields), headers });
/** Sends the flash cookie a redirect set, as the browser does on the next page. */
const keepCookies = (a: Account, res: Response) => {
  for (const cookie of res.headers.getSetCookie()) {
    const [pair] = cookie.split(";");
    const [name, ...rest] = pair!.split("=");
    a.client.jar.set(name!.trim(), rest.join("="));
  }
};

/** The <input> tag with this name and value (attribute order is React's business), or undefined. */
const inputTag = (html: string, name: string, value: string) =>
  html.match(/<input[^>]*>/g)?.find((tag) => tag.includes(`name="${name}"`) && tag.includes(`value="${value}"`));

let owner: Account, outsider: Account;
let alpha: string, beta: string, foreign: string;

beforeAll(async () => {
  owner = await signedUpClient({ name: "Paula Pages" });
  outsider = await signedUpClient({ name: "Out Sider" });
  alpha = await newProjectWithPrd(owner, "Alpha Onboarding", "## Problem\n\nNew users get lost in setup.");
  beta = await newProjectWithPrd(owner, "Beta Reports", "## Problem\n\nReports are slow.");
  foreign = await newProjectWithPrd(outsider, "Foreign Plan", "# Hidden");
});

afterEach(() => setFlagResolver(() => true));

describe("the project page's Export menu", () => {
  it("offers PDF, Word, HTML and Markdown in a plain form", async () => {
    const page = await owner.client.get(`/projects/${alpha}`);
    expect(page.status).toBe(200);
    expect(page.text).toContain(`<form method="post" action="/projects/${alpha}/export"`);
    for (const value of ["pdf", "docx", "html", "markdown"]) expect(page.text).toMatch(new RegExp(`name="format" value="${value}"`));
    const text = pageText(page);
    for (const label of ["Export", "PDF", "Word (DOCX)", "HTML", "Markdown"]) expect(text).toContain(label);
  });

  it("a format turned off is shown disabled with the reason", async () => {
    setFlagResolver((_actor, key) => key !== "export_docx");
    const page = await owner.client.get(`/projects/${alpha}/versions`);
    expect(page.text).toMatch(/<button[^>]*value="docx"[^>]*disabled=""/);
    expect(page.text).not.toMatch(/<button[^>]*value="html"[^>]*disabled=""/);
    expect(pageText(page)).toContain("Word (DOCX) export is turned off for your organization.");
  });

  it("posting the form returns the file as an attachment", async () => {
    const html = await postForm(owner, `/projects/${alpha}/export`, [["format", "html"]]);
    expect(html.status).toBe(200);
    expect(html.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(html.headers.get("Content-Disposition")).toMatch(/^attachment; filename="Alpha-Onboarding\.html"/);
    expect(await html.text()).toContain("New users get lost in setup.");
    const md = await postForm(owner, `/projects/${alpha}/export`, [["format", "markdown"]]);
    expect(md.headers.get("Content-Type")).toMatch(/^text\/markdown/);
    expect(md.headers.get("Content-Disposition")).toMatch(/filename="Alpha-Onboarding\.md"/);
    expect(await md.text()).toBe("# Alpha Onboarding\n\n## Problem\n\nNew users get lost in setup.");
  });

  it("refusals come back to the project page with a message; another org's project is 404; cross-site posts are refused", async () => {
    setFlagResolver((_actor, key) => key !== "export_pdf");
    const off = await postForm(owner, `/projects/${alpha}/export`, [["format", "pdf"]]);
    expect(off.status).toBe(302);
    expect(off.headers.get("Location")).toBe(`/projects/${alpha}`);
    keepCookies(owner, off);
    expect(pageText(await owner.client.get(`/projects/${alpha}`))).toContain("The export_pdf feature is not enabled for your organization");

    const unknown = await postForm(owner, `/projects/${alpha}/export`, [["format", "exe"]]);
    expect(unknown.status).toBe(302);
    expect((await postForm(owner, `/projects/${foreign}/export`, [["format", "html"]])).status).toBe(404);
    expect((await postForm(owner, `/projects/${alpha}/export`, [["format", "html"]], { Origin: "https://evil.example" })).status).toBe(403);
    const get = await owner.client.get(`/projects/${alpha}/export`);
    expect(get.status).toBe(302);
  });

  it("a held export says it was sent for approval", async () => {
    const boss = await signedUpClient({ name: "Bea Boss" });
    const orgId = boss.organization.id;
    const approver = await joinOrg(orgId, "admin", "Al Approver");
    const project = await newProjectWithPrd(boss, "Held Plan", "## Why\n\nBecause.");
    await setPlan(orgId, "enterprise");
    const wf = await boss.client.post("/api/admin/approval-workflows", { name: "Exports", triggerType: "prd_export", approverIds: [approver.user.id] });
    expect(wf.status, wf.text).toBe(201);
    expect(pageText(await boss.client.get(`/projects/${project}`))).toContain("Exports need approval in this organization");
    const res = await postForm(boss, `/projects/${project}/export`, [["format", "html"]]);
    expect(res.status).toBe(302);
    keepCookies(boss, res);
    const after = await boss.client.get(`/projects/${project}`);
    expect(pageText(after)).toContain("Sent for approval");
    expect(after.text).toMatch(/class="alert alert-info"[^>]*>\s*<p>Sent for approval/);
  });

  it("a refused export comes back as an error message on the project page", async () => {
    setFlagResolver((_actor, key) => key !== "export_pdf");
    const res = await postForm(owner, `/projects/${alpha}/export`, [["format", "pdf"]]);
    expect(res.status).toBe(302);
    keepCookies(owner, res);
    const page = await owner.client.get(`/projects/${alpha}`);
    expect(page.text).toMatch(/class="alert alert-error" role="alert"/);
    expect(pageText(page)).toMatch(/PDF export is turned off/i);
  });
});

describe("/exports", () => {
  it("is linked from the sidebar and lists the projects with a format choice and a link to scheduled exports", async () => {
    const page = await owner.client.get("/exports");
    expect(page.status).toBe(200);
    expect(page.text).toContain('href="/exports"');
    expect(page.text).toContain('href="/exports/schedules"');
    expect(page.text).toContain('<form method="post" action="/exports/download"');
    expect(inputTag(page.text, "projectIds", alpha)).toContain('type="checkbox"');
    expect(inputTag(page.text, "projectIds", beta)).toContain('type="checkbox"');
    expect(page.text).not.toContain(foreign);
    for (const value of ["pdf", "html", "markdown", "all"]) expect(inputTag(page.text, "format", value)).toContain('type="radio"');
    expect(inputTag(page.text, "format", "pdf")).toContain('checked=""');
    const text = pageText(page);
    expect(text).toContain("Download zip");
    expect(text).toContain("choose up to 20");
    const filtered = pageText(await owner.client.get("/exports?q=Beta"));
    expect(filtered).toContain("Beta Reports");
    expect(filtered).not.toContain("Alpha Onboarding");
    expect(pageText(await owner.client.get("/exports?q=zzzz"))).toContain("No project matches");
    expect(pageText(await outsider.client.get("/exports"))).toContain("Foreign Plan");
  });

  it("a new workspace gets a helpful empty state", async () => {
    const fresh = await signedUpClient({ name: "New Comer" });
    expect(pageText(await fresh.client.get("/exports"))).toContain("No projects to export yet");
  });

  it("posting the form downloads the zip", async () => {
    const res = await postForm(owner, "/exports/download", [
      ["projectIds", alpha],
      ["projectIds", beta],
      ["format", "markdown"],
    ]);
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/zip");
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="prd-export-/);
    const files = unzipSync(new Uint8Array(await res.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual(["Alpha-Onboarding.md", "Beta-Reports.md", "README.txt"]);
  });

  it("too many projects: back to the page with the message and the selection kept (JSON for the page's script)", async () => {
    const ids = [alpha, beta, ...Array.from({ length: 19 }, (_, i) => `missing-${i}`)];
    const res = await postForm(owner, "/exports/download", [...ids.map((id): [string, string] => ["projectIds", id]), ["format", "html"]]);
    expect(res.status).toBe(302);
    const location = res.headers.get("Location")!;
    expect(location).toMatch(/^\/exports\?result=error&format=html&selected=/);
    keepCookies(owner, res);
    const page = await owner.client.get(location);
    expect(pageText(page)).toContain("A bulk export takes at most 20 projects; 21 were sent");
    expect(inputTag(page.text, "projectIds", alpha)).toContain('checked=""');
    expect(inputTag(page.text, "projectIds", beta)).toContain('checked=""');
    expect(inputTag(page.text, "format", "html")).toContain('checked=""');
    expect(inputTag(page.text, "format", "pdf")).not.toContain('checked=""');

    const json = await postForm(owner, "/exports/download", [...ids.map((id): [string, string] => ["projectIds", id]), ["format", "html"]], {
      Accept: "application/json",
    });
    expect(json.status).toBe(400);
    expect(await json.json()).toMatchObject({ code: "TOO_MANY_PROJECTS" });

    const none = await postForm(owner, "/exports/download", [["format", "html"]]);
    keepCookies(owner, none);
    expect(pageText(await owner.client.get(none.headers.get("Location")!))).toContain("Choose at least one project.");
  });
});
