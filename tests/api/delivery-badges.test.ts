import { savedUserStories } from "../support/trackers";
import { beforeAll, describe, expect, it } from "vitest";
import type { TrackerIssueState } from "#db/schema";
import { db } from "~/db.server";
import { storyKey } from "~/domain/trackers/stories";
import { newId, nowIso } from "~/utils/ids.server";
import { signedUpClient } from "../support/client";
import { parseHtml } from "../support/html";
import { projectWithPrd } from "../support/integrations";
import { type Account, joinOrg } from "../support/org";

/** Delivery on the PRD (docs/trackers.md, "On the PRD"): badges by section on the Document page, story states under saved stories. */

const PRD = "# Expenses\n\n## Overview\n\nWhy.\n\n## Receipts\n\nSnap receipts.\n\n## Approvals\n\nManagers approve.\n";

const STORIES = `# User Stories: Expenses

## Receipts

### Story 1: Snap a receipt
As an employee, I want to photograph a receipt.

### Story 2: Attach a receipt to a report
As an employee, I want to attach receipts.

## Approvals

### Story 3: Approve a report
As a manager, I want to approve reports.
`;

let owner: Account;
let viewer: Account;
let outsider: Account;
let projectId: string;
let bareProjectId: string;
let outputId: string;

async function linkIssue(projectId: string, orgId: string, section: string | null, title: string, n: number, state: TrackerIssueState) {
  await db
    .insertInto("trackerIssues")
    .values({
      id: newId(),
      orgId,
      projectId,
      connectionId: null,
      service: "github",
      target: "acme/app",
      storyKey: storyKey(section, title),
      section,
      externalId: `ext-${n}`,
      externalNumber: n,
      externalKey: `acme/app#${n}`,
      url: `https://github.com/acme/app/issues/${n}`,
      title,
      state,
      lastSyncedAt: nowIso(),
      createdAt: nowIso(),
    })
    .execute();
}

beforeAll(async () => {
  owner = await signedUpClient({ name: "Olive Owner" });
  outsider = await signedUpClient({ name: "Oscar Outsider" });
  viewer = await joinOrg(owner.organization.id, "viewer", "Vera Viewer");
  projectId = await projectWithPrd(owner.client, "Expenses", PRD);
  bareProjectId = await projectWithPrd(owner.client, "Nothing sent", PRD);
  const shared = await owner.client.post(`/api/projects/${projectId}/collaborators`, { email: viewer.email, role: "viewer" });
  expect(shared.status, shared.text).toBe(201);
  const org = owner.organization.id;
  // Section names as the stories' epics spell them: matched to the PRD's headings whatever the case.
  await linkIssue(projectId, org, "Receipts", "Snap a receipt", 1, "done");
  await linkIssue(projectId, org, "receipts", "Attach a receipt to a report", 2, "in_progress");
  await linkIssue(projectId, org, "RECEIPTS", "Export receipts", 4, "done");
  await linkIssue(projectId, org, "Approvals", "Approve a report", 3, "open");
  await linkIssue(projectId, org, "Billing", "Pay by card", 5, "open");
  outputId = await savedUserStories(projectId, owner.user.id, STORIES);
});

const sectionCard = (html: string) => parseHtml(html).querySelector('section[aria-labelledby="delivery-sections-heading"]');
const rows = (html: string) =>
  [...(sectionCard(html)?.querySelectorAll('[data-testid="delivery-section"]') ?? [])].map((li) => {
    const [heading, badge] = [...li.querySelectorAll(".delivery-section-head > a, .delivery-section-head > span:not(.sr-only)")];
    return {
      section: heading?.textContent?.trim(),
      anchor: heading?.getAttribute("href") ?? null,
      badge: badge?.childNodes[0]?.textContent?.trim(),
      badgeHref: badge?.getAttribute("href"),
      summary: li.querySelector("summary")?.textContent?.trim(),
      issues: [...li.querySelectorAll("details li")].map((i) => [
        i.querySelector(".badge")?.textContent,
        i.querySelector("a")?.textContent,
        i.querySelector("a")?.getAttribute("href"),
      ]),
    };
  });

describe("Delivery by section on the Document page", () => {
  it("lists each PRD section with linked issues, in the PRD's order, with counts, anchors and the issues' states", async () => {
    const res = await owner.client.get(`/projects/${projectId}`);
    expect(res.status).toBe(200);
    const card = sectionCard(res.text);
    expect(card?.querySelector("h2")?.textContent).toBe("Delivery by section");
    const tracker = `/projects/${projectId}/tracker`;
    expect(rows(res.text)).toEqual([
      {
        section: "Receipts",
        anchor: "#receipts",
        badge: "2 of 3 done",
        badgeHref: tracker,
        summary: "3 issues: 1 in progress, 0 open",
        issues: [
          ["Done", "acme/app#1", "https://github.com/acme/app/issues/1"],
          ["In progress", "acme/app#2", "https://github.com/acme/app/issues/2"],
          ["Done", "acme/app#4", "https://github.com/acme/app/issues/4"],
        ],
      },
      {
        section: "Approvals",
        anchor: "#approvals",
        badge: "0 of 1 done",
        badgeHref: tracker,
        summary: "1 issue: 0 in progress, 1 open",
        issues: [["Open", "acme/app#3", "https://github.com/acme/app/issues/3"]],
      },
      {
        section: "Not under a PRD heading",
        anchor: null,
        badge: "0 of 1 done",
        badgeHref: tracker,
        summary: "1 issue: 0 in progress, 1 open",
        issues: [["Open", "acme/app#5", "https://github.com/acme/app/issues/5"]],
      },
    ]);
    // The anchors point at the rendered headings, and the badge's link says where it goes.
    const doc = parseHtml(res.text);
    expect(doc.querySelector('article[aria-label="PRD"] h2#receipts')?.textContent).toBe("Receipts");
    expect(doc.querySelector('article[aria-label="PRD"] h2#approvals')).not.toBeNull();
    expect(card?.querySelector(".badge .sr-only")?.textContent).toBe(" in Receipts: see the tracker page");
  });

  it("shows the same card, read-only, to a viewer", async () => {
    const res = await viewer.client.get(`/projects/${projectId}`);
    expect(res.status).toBe(200);
    expect(rows(res.text).map((r) => [r.section, r.badge])).toEqual([
      ["Receipts", "2 of 3 done"],
      ["Approvals", "0 of 1 done"],
      ["Not under a PRD heading", "0 of 1 done"],
    ]);
    expect(sectionCard(res.text)?.querySelector("form, button")).toBeNull();
  });

  it("shows nothing when no issue is linked", async () => {
    const res = await owner.client.get(`/projects/${bareProjectId}`);
    expect(res.status).toBe(200);
    expect(sectionCard(res.text)).toBeNull();
    expect(res.text).not.toContain("Delivery by section");
  });

  it("refuses another organization", async () => {
    expect((await outsider.client.get(`/projects/${projectId}`)).status).toBe(404);
    expect((await outsider.client.get(`/projects/${projectId}/ai/documents`)).status).toBe(404);
  });
});

describe("story states under saved user stories", () => {
  const sent = (html: string) =>
    [...parseHtml(html).querySelectorAll(`#output-${outputId} [data-testid="sent-story"]`)].map((li) => li.textContent?.replace(/\s+/g, " ").trim());

  it("marks each sent story with its state and issue, matched by the sync's story key", async () => {
    const res = await owner.client.get(`/projects/${projectId}/ai/documents`);
    expect(res.status).toBe(200);
    expect(parseHtml(res.text).querySelector(`#output-${outputId} .delivery-sent h3`)?.textContent).toBe("Sent to a tracker");
    expect(sent(res.text)).toEqual([
      "Snap a receipt Sent: Done · acme/app#1",
      "Attach a receipt to a report Sent: In progress · acme/app#2",
      "Approve a report Sent: Open · acme/app#3",
    ]);
    const link = parseHtml(res.text).querySelector(`#output-${outputId} [data-testid="sent-story"] a`);
    expect(link?.getAttribute("href")).toBe("https://github.com/acme/app/issues/1");
  });

  it("shows the states to a viewer too", async () => {
    const res = await viewer.client.get(`/projects/${projectId}/ai/documents`);
    expect(res.status).toBe(200);
    expect(sent(res.text)).toHaveLength(3);
  });

  it("shows no list when none of the stories was sent", async () => {
    const other = await savedUserStories(bareProjectId, owner.user.id, STORIES);
    const res = await owner.client.get(`/projects/${bareProjectId}/ai/documents`);
    expect(res.status).toBe(200);
    expect(parseHtml(res.text).querySelector(`#output-${other}`)).not.toBeNull();
    expect(parseHtml(res.text).querySelector(".delivery-sent")).toBeNull();
  });
});
