import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { ensureSystemTemplates } from "~/domain/templates/system.server";
import { signedUpClient, TestClient } from "../support/client";
import { parseHtml } from "../support/html";
import { joinOrg } from "../support/org";
import { pageText } from "../support/page";

/** Rough edges of the pages, rendered on the server: titles, labels, plurals, dates, names and snippets as a person reads them. */

const titleOf = (html: string) => parseHtml(html).querySelector("title")?.textContent ?? "";
const linksOf = (html: string, selector: string) =>
  [...parseHtml(html).querySelectorAll(`${selector} a`)].map((a) => [a.textContent?.trim(), a.getAttribute("href")]);

describe("not-found and error pages", () => {
  it("an unknown address: 404 with a title, a heading, an explanation and the landing page for a visitor", async () => {
    const res = await new TestClient("10.88.0.1").get("/no-such-page");
    expect(res.status).toBe(404);
    expect(titleOf(res.text)).toBe("Page not found · PRD Studio");
    const doc = parseHtml(res.text);
    expect(doc.querySelector("h1")?.textContent).toBe("Page not found");
    expect(pageText(res)).toContain("We could not find that page.");
    expect(linksOf(res.text, 'nav[aria-label="Ways back"]')).toEqual([
      ["Go to the PRD Studio home page", "/"],
      ["Sign in", "/sign-in"],
    ]);
    // The public frame: brand and site navigation.
    expect(doc.querySelector('nav[aria-label="Site"]')).not.toBeNull();
    // A form posted to an unknown address is not found either (not 405).
    const posted = await new TestClient("10.88.0.1").call("POST", "/no-such-page", {
      body: new URLSearchParams({ a: "1" }),
      headers: { "Content-Type": "application/x-www-form-urlencoded" },
    });
    expect(posted.status).toBe(404);
    expect(titleOf(posted.text)).toBe("Page not found · PRD Studio");
  });

  it("offers Home and Projects to someone signed in, for an unknown address and for a missing project", async () => {
    const { client } = await signedUpClient();
    for (const path of ["/no-such-page", "/projects/does-not-exist", "/projects/does-not-exist/versions"]) {
      const res = await client.get(path);
      expect(res.status, path).toBe(404);
      expect(titleOf(res.text), path).toBe("Page not found · PRD Studio");
      expect(parseHtml(res.text).querySelector("h1")?.textContent, path).toBe("Page not found");
      expect(linksOf(res.text, 'nav[aria-label="Ways back"]'), path).toEqual([
        ["Home", "/home"],
        ["Projects", "/projects"],
      ]);
    }
    // API addresses keep their JSON envelope.
    const api = await client.get("/api/no-such-endpoint");
    expect(api.status).toBe(404);
    expect(api.body.code).toBe("NOT_FOUND");
  });

  it("titles an access error too", async () => {
    const { client } = await signedUpClient();
    const res = await client.get("/admin/submissions");
    expect(res.status).toBe(403);
    expect(titleOf(res.text)).toBe("Access denied · PRD Studio");
    expect(parseHtml(res.text).querySelector("h1")?.textContent).toBe("Access denied");
  });
});

describe("the app shell", () => {
  it("shows the Ctrl K hint beside the search box", async () => {
    const { client } = await signedUpClient();
    const res = await client.get("/home");
    const doc = parseHtml(res.text);
    const hint = doc.querySelector("form.sidebar-search .search-shortcut-hint");
    expect(hint?.querySelector("kbd")?.textContent).toBe("Ctrl K");
    expect(hint?.getAttribute("aria-hidden")).toBe("true");
    expect(hint?.previousElementSibling?.id).toBe("global-search");
  });
});

describe("dates, plurals and names", () => {
  it("lists versions with date and time (UTC on the server, stable for hydration)", async () => {
    const { client } = await signedUpClient();
    const project = await client.post("/api/projects", { name: "Dated" });
    await client.post(`/api/projects/${project.body.id}/prd`, { content: "# Dated\n\nOne" });
    const version = await db.selectFrom("prdVersions").select(["createdAt"]).where("projectId", "=", project.body.id).executeTakeFirstOrThrow();
    const res = await client.get(`/projects/${project.body.id}/versions`);
    expect(res.status).toBe(200);
    const time = parseHtml(res.text).querySelector(`table time[datetime="${version.createdAt}"]`);
    const expected = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" }).format(new Date(version.createdAt));
    expect(time?.textContent).toBe(`${expected} UTC`);
    expect(time?.textContent).toMatch(/\d{1,2} \w{3} \d{4}, \d{2}:\d{2} UTC/);
  });

  it("counts members, invitations and seats in the singular when there is one", async () => {
    const { client } = await signedUpClient();
    const res = await client.get("/admin/invitations");
    expect(res.status).toBe(200);
    expect(pageText(res)).toContain("1 member and 0 open invitations of 3 seats.");
    expect(pageText(res)).not.toMatch(/\b1 members\b/);

    const joined = await signedUpClient();
    await joinOrg(joined.organization.id, "member", "Second");
    await joinOrg(joined.organization.id, "member", "Third");
    const dashboard = pageText(await joined.client.get("/admin/dashboard"));
    expect(dashboard).toContain("Members by role: 1 owner, 0 admins, 2 members, 0 viewers.");
    expect(dashboard).toContain("0 AI calls, 0 tokens");
    expect(dashboard).toMatch(/\b\d+ projects? created in the last 30 days\./);
  });

  it("names the user and project an audit entry is about, with the ids in tooltips", async () => {
    const owner = await signedUpClient({ name: "Olive Owner" });
    const member = await joinOrg(owner.organization.id, "member", "Max Member");
    const project = await owner.client.post("/api/projects", { name: "Audited project" });
    const entry = (targetType: string, targetId: string) => ({
      id: crypto.randomUUID(),
      orgId: owner.organization.id,
      actorId: owner.user.id,
      actorEmail: owner.user.email,
      action: "test.named",
      category: "member",
      severity: "info" as const,
      targetType,
      targetId,
      ip: null,
      userAgent: null,
      metadata: "{}",
      createdAt: new Date().toISOString(),
    });
    await db
      .insertInto("auditLogs")
      .values([entry("user", member.user.id), entry("project", project.body.id), entry("team", "team-123")])
      .execute();
    const res = await owner.client.get("/admin/audit?action=test.named");
    expect(res.status).toBe(200);
    const rows = [...parseHtml(res.text).querySelectorAll("tbody tr")];
    expect(rows).toHaveLength(3);
    const cells = (row: Element) => [...row.querySelectorAll("td")];
    const byTarget = new Map(rows.map((row) => [cells(row)[6]!.textContent!.trim(), row]));
    const userRow = byTarget.get("User Max Member")!;
    expect(userRow).toBeDefined();
    expect(cells(userRow)[4]!.textContent).toBe("Olive Owner");
    expect(cells(userRow)[4]!.querySelector("span")!.getAttribute("title")).toBe(`${owner.user.email} · ${owner.user.id}`);
    expect(cells(userRow)[6]!.querySelector("span")!.getAttribute("title")).toBe(`User id ${member.user.id}`);
    const projectLink = byTarget.get("Project Audited project")!.querySelector("a")!;
    expect(projectLink.getAttribute("href")).toBe(`/projects/${project.body.id}`);
    expect(projectLink.getAttribute("title")).toBe(`Project id ${project.body.id}`);
    // Other targets keep their type and id.
    expect(byTarget.has("team team-123")).toBe(true);
    expect(pageText(res)).not.toContain(`Owner ${owner.user.id}`);
  });
});

describe("search snippets", () => {
  it("shows plain text with the matches marked, no Markdown syntax and no HTML from the PRD", async () => {
    await ensureSystemTemplates();
    const { client } = await signedUpClient();
    const project = await client.post("/api/projects", { name: "Snippet project" });
    await client.post(`/api/projects/${project.body.id}/prd`, {
      content: "# Checkout\n\n## Problem\nThe **quokka** flow is [slow](https://example.com/quokka) & <b>fragile</b>.\n\n- `quokka` retries",
    });
    const res = await client.get("/search?q=quokka");
    expect(res.status).toBe(200);
    const snippet = parseHtml(res.text).querySelector(".snippet")!;
    expect(snippet.textContent).toBe("Checkout Problem The quokka flow is slow & fragile. quokka retries");
    expect([...snippet.querySelectorAll("mark")].map((m) => m.textContent)).toEqual(["quokka", "quokka"]);
    expect(snippet.querySelectorAll("*")).toHaveLength(2);
    expect(snippet.textContent).not.toMatch(/[*#`[\]]/);
  });
});
