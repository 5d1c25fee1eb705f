import { beforeAll, describe, expect, it } from "vitest";
import { createGithubMock, GITHUB_API_URL, GOOD_TOKEN } from "../mocks/github";
import { signedUpClient } from "../support/client";
import { parseHtml } from "../support/html";
import { projectWithPrd } from "../support/integrations";
import { type Account, joinOrg } from "../support/org";
import { savedUserStories, useTrackerStandIn } from "../support/trackers";

/**
 * Tracker sync is shown to members only once an owner or admin has connected
 * a tracker (docs/trackers.md): no "Issue trackers" tab and no "Send these
 * stories to a tracker" link for an integration nobody set up. Owners and
 * admins always see the tab, since they are the ones who connect.
 */

const gh = createGithubMock();
useTrackerStandIn({ GITHUB_API_URL }, gh.handlers);

const STORIES = "## Receipts\n\n### Snap a receipt\nAs an employee, I want to photograph a receipt, so that I do not keep paper.\n";

let owner: Account;
let member: Account;
let projectId: string;

beforeAll(async () => {
  owner = await signedUpClient({ name: "Olive Owner" });
  member = await joinOrg(owner.organization.id, "member", "Mo Member");
  projectId = await projectWithPrd(member.client, "Expenses", "# Expenses\n\n## Receipts\n\nSnap receipts.\n");
  await savedUserStories(projectId, member.user.id, STORIES);
});

const settingsTabs = async (account: Account) =>
  [...parseHtml((await account.client.get("/settings")).text).querySelectorAll("nav a")].map((a) => a.textContent?.trim());
const sendLinks = async (account: Account) =>
  [...parseHtml((await account.client.get(`/projects/${projectId}/ai/documents`)).text).querySelectorAll("a")].filter(
    (a) => a.textContent?.trim() === "Send these stories to a tracker",
  ).length;

const deliveryLinks = async (account: Account) => {
  const card = parseHtml((await account.client.get("/settings/integrations")).text).querySelector("[aria-labelledby=delivery-integrations-heading]");
  return [...(card?.querySelectorAll("li") ?? [])].map((li) => li.textContent?.replace(/\s+/g, " ").trim());
};

describe("who sees issue trackers", () => {
  it("hides them from members until a tracker is connected, and always shows the owner where to connect one", async () => {
    expect(await settingsTabs(owner)).toContain("Issue trackers");
    expect(await settingsTabs(member)).not.toContain("Issue trackers");
    expect(await settingsTabs(member)).toContain("Integrations");
    expect(await sendLinks(member)).toBe(0);
    // Settings → Integrations: the owner is pointed at trackers, Slack and MCP; the member at MCP only.
    const ownerLines = await deliveryLinks(owner);
    expect(ownerLines.map((l) => l?.split(" — ")[0])).toEqual(["Issue trackers", "Slack", "AI agents (MCP)"]);
    expect(ownerLines[0]).toContain("nothing connected yet");
    expect(ownerLines[1]).toContain("Not set up on this server");
    expect((await deliveryLinks(member)).map((l) => l?.split(" — ")[0])).toEqual(["AI agents (MCP)"]);

    const connected = await owner.client.post("/api/integrations/trackers", { service: "github", token: GOOD_TOKEN });
    expect(connected.status, connected.text).toBe(201);

    expect(await settingsTabs(member)).toContain("Issue trackers");
    expect(await sendLinks(member)).toBe(1);
    expect((await deliveryLinks(member))[0]).toMatch(/^Issue trackers — Connected: GitHub \(octocat\)/);
    // Another organization's connection shows nothing to this one's members.
    const stranger = await signedUpClient({ name: "Sam Stranger" });
    const strangerMember = await joinOrg(stranger.organization.id, "member", "Sid Member");
    expect(await settingsTabs(strangerMember)).not.toContain("Issue trackers");
  });
});
