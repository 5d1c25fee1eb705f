import { beforeAll, describe, expect, it } from "vitest";
import type { Role } from "#db/schema";
import { db } from "~/db.server";
import type { Actor } from "~/domain/actor";
import { trackersConnected } from "~/domain/trackers/story-source.server";
import { createGithubMock, GITHUB_API_URL, GOOD_TOKEN } from "../mocks/github";
import { signedUpClient } from "../support/client";
import { parseHtml } from "../support/html";
import { projectWithPrd } from "../support/integrations";
import { type Account, joinOrg } from "../support/org";
import { pageText } from "../support/page";
import { savedUserStories, useTrackerStandIn } from "../support/trackers";

/**
 * Choosing the stories on the Send to tracker page (docs/trackers.md,
 * "Choosing the stories"), rendered on the server as a browser without
 * JavaScript gets it: three sources, a POST preview with one checkbox per
 * story, a send of the checked ones only, and the editor's form.
 */

const gh = createGithubMock();
useTrackerStandIn({ GITHUB_API_URL }, gh.handlers);

const PRD = `# Expenses

## Problem
Paper receipts get lost.

## User stories

### Snap a receipt
As an employee, I want to photograph a receipt, so that I do not keep paper.

- Given a photo, when I upload it, then the amount is read.

### Approve a report
As a manager, I want to approve reports, so that people are paid.

## Open questions
- Which currencies?
`;

const PASTED = `## Receipts

### Scan a receipt
As an employee, I want to scan a receipt, so that the amount is read.

### Split a receipt
As an employee, I want to split a receipt across reports.

## Approvals

### Reject a report
As a manager, I want to reject a report with a reason.
`;

let owner: Account;
let viewer: Account;
let other: Account;
let connectionId: string;
let projectId: string;
let plainProjectId: string;

const form = (values: Record<string, string>, storyKeys: string[] = []) => {
  const body = new URLSearchParams(values);
  for (const key of storyKeys) body.append("storyKeys", key);
  return { body, headers: { "Content-Type": "application/x-www-form-urlencoded" } };
};
const post = (account: Account, values: Record<string, string>, storyKeys?: string[], project = projectId) =>
  account.client.call("POST", `/projects/${project}/tracker`, form(values, storyKeys));

/** The preview's checkboxes: label text, key, checked. */
function picks(html: string) {
  const doc = parseHtml(html);
  return [...doc.querySelectorAll<HTMLInputElement>('section[aria-labelledby=preview-heading] input[type=checkbox][name="storyKeys"]')].map((box) => ({
    label: doc.querySelector(`label[for="${box.id}"]`)?.textContent ?? "",
    key: box.value,
    checked: box.hasAttribute("checked"),
  }));
}
const hidden = (html: string, name: string) =>
  parseHtml(html).querySelector<HTMLInputElement>(`section[aria-labelledby=preview-heading] input[type=hidden][name="${name}"]`)?.value ?? null;
const sendButton = (html: string) => parseHtml(html).querySelector("section[aria-labelledby=preview-heading] button[type=submit]")?.textContent;

beforeAll(async () => {
  owner = await signedUpClient({ name: "Pia Picker" });
  other = await signedUpClient({ name: "Otto Outsider" });
  viewer = await joinOrg(owner.organization.id, "viewer", "Vic Viewer");
  const connected = await owner.client.post("/api/integrations/trackers", { service: "github", token: GOOD_TOKEN });
  expect(connected.status, connected.text).toBe(201);
  connectionId = connected.body.connection.id;
  projectId = await projectWithPrd(owner.client, "Expenses", PRD);
  plainProjectId = await projectWithPrd(owner.client, "No stories", "# No stories\n\n## Goals\n\nFewer lost receipts.\n");
  const shared = await owner.client.post(`/api/projects/${projectId}/collaborators`, { email: viewer.email, role: "viewer" });
  expect(shared.status, shared.text).toBeLessThan(300);
});

describe("choosing the source", () => {
  it("offers three sources as one group of radio buttons, with the PRD's stories counted and the paste hint", async () => {
    const page = await owner.client.get(`/projects/${projectId}/tracker`);
    expect(page.status, page.text).toBe(200);
    const doc = parseHtml(page.text);
    const group = doc.querySelector("fieldset.tracker-sources")!;
    expect(group.querySelector("legend")?.textContent).toBe("Where the stories come from");
    const radios = [...group.querySelectorAll<HTMLInputElement>("input[type=radio][name=source]")];
    expect(radios.map((r) => [r.value, doc.querySelector(`label[for="${r.id}"]`)?.textContent, r.disabled])).toEqual([
      ["output", "Saved user stories", true],
      ["prd", "Stories in this PRD", false],
      ["paste", "Paste stories (Markdown)", false],
    ]);
    // No saved output yet: the PRD's stories are chosen.
    expect(radios.find((r) => r.checked)?.value).toBe("prd");
    expect(doc.querySelector("#source-prd-hint")?.textContent).toBe('2 stories under the PRD\'s "User stories" heading.');
    expect(doc.querySelector("label[for=field-markdown]")?.textContent).toBe("Stories as Markdown");
    expect(doc.querySelector("#field-markdown-hint")?.textContent).toContain("### Story title");
    expect(doc.querySelector("form:has(input[name=intent][value=preview])")?.getAttribute("method")).toBe("post");
    // The only connection and no send yet: the tracker is chosen, the repository is not.
    expect(doc.querySelector<HTMLSelectElement>("#field-connectionId")?.value).toBe(connectionId);
  });

  it("previews the stories written in the PRD, without asking GitHub", async () => {
    const calls = gh.calls.length;
    const res = await post(owner, { intent: "preview", source: "prd", connectionId, target: "acme/prd" });
    expect(res.status, res.text).toBe(200);
    expect(parseHtml(res.text).querySelector("#preview-heading")?.textContent).toBe("Preview: acme/prd");
    expect(picks(res.text).map((p) => [p.label, p.checked])).toEqual([
      ["Snap a receipt — will create", true],
      ["Approve a report — will create", true],
    ]);
    // The send carries the PRD's stories section as Markdown.
    expect(hidden(res.text, "markdown")).toMatch(/^## User stories\n\n### Snap a receipt\n[\s\S]*### Approve a report\n[^#]*$/);
    expect(hidden(res.text, "outputId")).toBeNull();
    expect(parseHtml(res.text).querySelector<HTMLInputElement>("#source-prd")?.checked).toBe(true);
    expect(parseHtml(res.text).querySelector("#field-markdown")?.textContent).toBe("");
    expect(sendButton(res.text)).toBe("Send the checked stories to acme/prd");
    expect(gh.calls.length).toBe(calls);
  });

  it("says plainly when the PRD has no user stories (the radio is off, and a post is refused next to it)", async () => {
    const page = parseHtml((await owner.client.get(`/projects/${plainProjectId}/tracker`)).text);
    expect(page.querySelector<HTMLInputElement>("#source-prd")?.disabled).toBe(true);
    expect(page.querySelector<HTMLInputElement>("#source-paste")?.checked).toBe(true);
    const res = await post(owner, { intent: "preview", source: "prd", connectionId, target: "acme/prd" }, [], plainProjectId);
    expect(res.status).toBe(400);
    const doc = parseHtml(res.text);
    expect(doc.querySelector("#field-source-error")?.textContent).toMatch(/^This PRD has no user stories yet: add a "User stories" section/);
    expect(doc.querySelector("#preview-heading")).toBeNull();
  });

  it("keeps saved outputs on their GET preview: a posted preview of an output redirects to it", async () => {
    const outputId = await savedUserStories(plainProjectId, owner.user.id, PASTED);
    const res = await post(owner, { intent: "preview", source: "output", outputId, connectionId, target: "acme/out" }, [], plainProjectId);
    expect(res.status).toBe(302);
    const location = res.headers.get("Location")!;
    expect(location).toBe(`/projects/${plainProjectId}/tracker?outputId=${outputId}&connectionId=${connectionId}&target=acme%2Fout`);
    const page = await owner.client.get(location);
    expect(picks(page.text).map((p) => p.label)).toEqual(["Scan a receipt — will create", "Split a receipt — will create", "Reject a report — will create"]);
    expect(hidden(page.text, "outputId")).toBe(outputId);
    expect(hidden(page.text, "markdown")).toBeNull();
  });
});

describe("picking the stories to send", () => {
  it("previews pasted Markdown by POST, one checked box per story, the paste kept in its field", async () => {
    const res = await post(owner, { intent: "preview", source: "paste", markdown: PASTED, connectionId, target: "acme/paste" });
    expect(res.status, res.text).toBe(200);
    expect(picks(res.text).map((p) => [p.label, p.checked])).toEqual([
      ["Scan a receipt — will create", true],
      ["Split a receipt — will create", true],
      ["Reject a report — will create", true],
    ]);
    const doc = parseHtml(res.text);
    expect(doc.querySelector<HTMLInputElement>("#source-paste")?.checked).toBe(true);
    expect(doc.querySelector("#field-markdown")?.textContent).toBe(PASTED.trim());
    expect(doc.querySelector("section[aria-labelledby=preview-heading] fieldset legend")?.textContent).toBe("Stories to send");
    expect(hidden(res.text, "markdown")).toBe(PASTED.trim());
  });

  it("sends only the checked stories: two of three checked, two issues created", async () => {
    const preview = await post(owner, { intent: "preview", source: "paste", markdown: PASTED, connectionId, target: "acme/paste" });
    const [scan, , reject] = picks(preview.text);
    const res = await post(
      owner,
      { intent: "send", picking: "1", source: "paste", connectionId, target: "acme/paste", markdown: hidden(preview.text, "markdown")! },
      [scan!.key, reject!.key],
    );
    expect(res.status, res.text).toBe(302);
    expect(gh.issues.filter((i) => i.repo === "acme/paste").map((i) => i.title)).toEqual(["Scan a receipt", "Reject a report"]);
    expect(pageText(await owner.client.get(`/projects/${projectId}/tracker`))).toContain("Sent to acme/paste: 2 created, 0 updated.");
    // Previewed again: the two sent update their issues, the third is still to create.
    const again = await post(owner, { intent: "preview", source: "paste", markdown: PASTED, connectionId, target: "acme/paste" });
    expect(picks(again.text).map((p) => p.label)).toEqual([
      "Scan a receipt — will update acme/paste#1",
      "Split a receipt — will create",
      "Reject a report — will update acme/paste#2",
    ]);
  });

  it("refuses a send with no story checked, next to the checkboxes, and keeps the preview", async () => {
    const calls = gh.calls.length;
    const res = await post(owner, { intent: "send", picking: "1", source: "paste", connectionId, target: "acme/none", markdown: PASTED });
    expect(res.status).toBe(400);
    const doc = parseHtml(res.text);
    expect(doc.querySelector("#field-storyKeys-error")?.textContent).toBe("Check at least one story to send.");
    expect(doc.querySelector("section[aria-labelledby=preview-heading] fieldset")?.getAttribute("aria-describedby")).toContain("field-storyKeys-error");
    expect(picks(res.text).map((p) => p.checked)).toEqual([false, false, false]);
    expect(hidden(res.text, "markdown")).toBe(PASTED);
    expect(gh.calls.length).toBe(calls);
    expect(gh.issues.filter((i) => i.repo === "acme/none")).toEqual([]);
  });
});

describe("a send refused as a whole", () => {
  it("keeps the preview and the checked stories, with the reason beside the button", async () => {
    // Another send to acme/busy holds the lease.
    await db
      .insertInto("trackerSendLocks")
      .values({ lockKey: `${projectId}\ngithub\nacme/busy`, projectId, holder: "other", expiresAt: new Date(Date.now() + 60_000).toISOString() })
      .execute();
    const preview = await post(owner, { intent: "preview", source: "paste", markdown: PASTED, connectionId, target: "acme/busy" });
    const [, split] = picks(preview.text);
    const res = await post(owner, { intent: "send", picking: "1", source: "paste", connectionId, target: "acme/busy", markdown: PASTED }, [split!.key]);
    expect(res.status).toBe(409);
    const doc = parseHtml(res.text);
    expect(doc.querySelector("#field-storyKeys-error")?.textContent).toMatch(/already being sent to GitHub \(acme\/busy\)/);
    expect(picks(res.text).map((p) => p.checked)).toEqual([false, true, false]);
    expect(gh.issues.filter((i) => i.repo === "acme/busy")).toEqual([]);
  });
});

describe("from the editor", () => {
  const actorOf = (a: Account, role: Role): Actor => ({
    user: { id: a.user.id, email: a.email, name: a.user.name, emailVerified: true, timezone: "UTC" },
    org: { id: a.organization.id, name: a.organization.name, plan: "free" },
    role,
    via: "session",
    isSuperadmin: false,
    ip: null,
    userAgent: null,
  });

  it("offers the editor's button only to writers of an organization with a tracker connected", async () => {
    expect(await trackersConnected(actorOf(owner, "owner"))).toBe(true);
    expect(await trackersConnected({ ...actorOf(owner, "viewer"), user: actorOf(viewer, "viewer").user })).toBe(false);
    expect(await trackersConnected(actorOf(other, "owner"))).toBe(false);
  });

  it("previews a selection posted by the editor, with the project's last repository", async () => {
    const selection = "### Split a receipt\nAs an employee, I want to split a receipt across reports.";
    const res = await post(owner, { intent: "preview", source: "paste", from: "editor", markdown: selection });
    expect(res.status, res.text).toBe(200);
    expect(parseHtml(res.text).querySelector("#preview-heading")?.textContent).toBe("Preview: acme/paste");
    expect(picks(res.text).map((p) => p.label)).toEqual(["Split a receipt — will create"]);
  });

  it("says so plainly when the selection holds no story", async () => {
    const res = await post(owner, { intent: "preview", source: "paste", from: "editor", markdown: "Just a sentence about receipts." });
    expect(res.status).toBe(400);
    const doc = parseHtml(res.text);
    expect(doc.querySelector("#field-markdown-error")?.textContent).toMatch(/^No stories found in the selection: a story is a heading \(### Story title/);
    expect(doc.querySelector("#field-markdown")?.textContent).toBe("Just a sentence about receipts.");
    expect(doc.querySelector<HTMLInputElement>("#source-paste")?.checked).toBe(true);
    expect(doc.querySelector("#preview-heading")).toBeNull();
  });

  it("asks for the repository when the project has sent nothing yet", async () => {
    const res = await post(owner, { intent: "preview", source: "paste", from: "editor", markdown: PASTED }, [], plainProjectId);
    expect(res.status).toBe(400);
    const doc = parseHtml(res.text);
    expect(doc.querySelector("#field-target-hint")?.textContent).toBe("Choose where to create the issues, then preview them.");
    expect(doc.querySelector("#field-markdown")?.textContent).toBe(PASTED);
  });
});

describe("who may send", () => {
  it("shows a viewer the linked issues but no send controls, and refuses their preview", async () => {
    const page = await viewer.client.get(`/projects/${projectId}/tracker`);
    expect(page.status).toBe(200);
    const doc = parseHtml(page.text);
    expect(doc.querySelectorAll("input[name=source], input[name=intent][value=preview], input[name=intent][value=send]").length).toBe(0);
    expect(doc.querySelector("#field-markdown")).toBeNull();
    expect(pageText(page)).toContain("sending stories needs edit rights on this project");
    expect(pageText(page)).toContain("acme/paste#1");
    const res = await post(viewer, { intent: "preview", source: "paste", markdown: PASTED, connectionId, target: "acme/paste" });
    expect(res.status).toBe(403);
    expect(parseHtml(res.text).querySelector("#preview-heading")).toBeNull();
    expect(parseHtml(res.text).querySelector("[role=alert]")?.textContent).toBe("Only owners, admins and members can do this; you are a viewer.");
    const sent = await post(viewer, { intent: "send", picking: "1", source: "paste", markdown: PASTED, connectionId, target: "acme/viewer" }, ["x"]);
    expect(sent.status).toBe(403);
    expect(parseHtml(sent.text).querySelector("[role=alert]")?.textContent).toBe("Only owners, admins and members can do this; you are a viewer.");
    expect(gh.issues.filter((i) => i.repo === "acme/viewer")).toEqual([]);
  });

  it("is a 404 for another organization's project, page and posts alike", async () => {
    expect((await other.client.get(`/projects/${projectId}/tracker`)).status).toBe(404);
    const res = await post(other, { intent: "preview", source: "prd", connectionId, target: "acme/prd" });
    expect(res.status).toBe(404);
    expect(res.text).not.toContain("Snap a receipt");
    const sent = await post(other, { intent: "send", picking: "1", source: "paste", markdown: PASTED, connectionId, target: "acme/stolen" }, ["x"]);
    expect(sent.status).toBe(404);
    expect(gh.issues.filter((i) => i.repo === "acme/stolen")).toEqual([]);
  });
});
