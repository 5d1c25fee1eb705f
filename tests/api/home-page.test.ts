import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { addMembership } from "~/domain/orgs/orgs.server";
import { registerBackgroundWork } from "~/jobs/handlers.server";
import { runDueJobs } from "~/jobs/worker.server";
import { signedUpClient, TestClient } from "../support/client";
import { parseHtml } from "../support/html";
import { type Account, joinOrg, setPlan } from "../support/org";
import { pageText } from "../support/page";

/** The Home page (docs/ui.md, "Home"): what needs the person, rendered on the server from homeFeed. */

registerBackgroundWork();

const home = async (client: TestClient) => {
  const res = await client.get("/home");
  expect(res.status, res.text).toBe(200);
  return { res, doc: parseHtml(res.text), text: pageText(res) };
};

/** A card by its heading id: its heading text and its links as [text, href]. */
function card(doc: Document, id: string) {
  const section = doc.querySelector(`section[aria-labelledby="${id}"]`);
  expect(section, id).not.toBeNull();
  return {
    heading: section!.querySelector("h2")!.textContent!.replace(/\s+/g, " ").trim(),
    text: section!.textContent!.replace(/\s+/g, " "),
    links: [...section!.querySelectorAll("a")].map((a) => [a.textContent!.replace(/\s+/g, " ").trim(), a.getAttribute("href")]),
  };
}

async function newProject(client: TestClient, body: Record<string, unknown>) {
  const res = await client.post("/api/projects", body);
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

describe("an empty home", () => {
  it("shows each card with a zero count, one sentence and a link to act", async () => {
    const { client } = await signedUpClient({ name: "Nina New" });
    const { doc } = await home(client);
    expect(card(doc, "home-continue")).toMatchObject({ heading: "Continue where you left off 0 projects" });
    expect(card(doc, "home-continue").text).toContain("Nothing to pick up yet: the projects you change show up here.");
    expect(card(doc, "home-continue").links).toEqual([["Start a project", "/projects/new"]]);
    expect(card(doc, "home-waiting").heading).toBe("Waiting for you 0 items");
    expect(card(doc, "home-waiting").text).toContain("Nothing waits for you");
    expect(card(doc, "home-waiting").links).toEqual([["Open approvals", "/approvals"]]);
    expect(card(doc, "home-mentions").heading).toBe("Mentions 0 unread");
    expect(card(doc, "home-mentions").text).toContain("No one has mentioned you lately.");
    expect(card(doc, "home-mentions").links).toEqual([["Open notifications", "/notifications"]]);
    expect(card(doc, "home-recent").heading).toBe("Recent projects 0 projects");
    expect(card(doc, "home-recent").links).toEqual([["Start a project", "/projects/new"]]);
    // The unfinished checklist still leads the page, open, before the cards.
    const checklist = doc.querySelector('section[aria-labelledby="getting-started"]')!;
    expect(checklist.querySelector("details")).toBeNull();
    expect(checklist.compareDocumentPosition(doc.querySelector(".home-grid")!) & 4).toBe(4);
  });
});

describe("a home with work in it", () => {
  let owner: Account;
  let member: Account;
  let viewer: Account;
  let orgId: string;
  let held: string;
  let inReview: string;
  let written: string;
  let chatted: string;
  let shared: string;
  let commentId: string;
  let reviewId: string;

  beforeAll(async () => {
    owner = await signedUpClient({ name: "Olive Owner" });
    orgId = owner.organization.id;
    await setPlan(orgId, "enterprise");
    member = await joinOrg(orgId, "member", "Max Member");
    viewer = await joinOrg(orgId, "viewer", "Vera Viewer");
    // An approval workflow names the owner; the member's move to Approved waits for them.
    const wf = await owner.client.post("/api/admin/approval-workflows", { name: "Sign-off", triggerType: "prd_publish", approverIds: [owner.user.id] });
    expect(wf.status, wf.text).toBe(201);
    held = await newProject(member.client, { name: "Held launch" });
    expect((await member.client.patch(`/api/projects/${held}/status`, { status: "APPROVED" })).status).toBe(202);
    // Assigned to the member, in review.
    inReview = await newProject(owner.client, { name: "Pricing page", status: "IN_REVIEW", assignedToId: member.user.id });
    // The owner writes a PRD, then talks to the AI builder on another project (the last change).
    written = await newProject(owner.client, { name: "Search revamp" });
    expect((await owner.client.post(`/api/projects/${written}/prd`, { content: "# Search\n\nFaster results." })).status).toBe(201);
    chatted = await newProject(owner.client, { name: "Onboarding flow" });
    const chat = await owner.client.post(`/api/projects/${chatted}/chat`, { message: "New users drop off at step two." });
    expect(chat.status, chat.text).toBe(200);
    // The member mentions the owner in a comment; the notification is delivered (unread).
    const comment = await member.client.post(`/api/projects/${written}/comments`, { content: `@${owner.email} can you check the ranking section?` });
    expect(comment.status, comment.text).toBe(201);
    commentId = comment.body.comment.id;
    await runDueJobs();
    // A stakeholder approves a review the owner asked for on their project.
    const token = (await owner.client.post(`/api/projects/${written}/share`, {})).body.shareToken;
    reviewId = (await owner.client.post(`/api/projects/${written}/stakeholder-views`, { name: "Legal sign-off", stakeholderName: "Lee" })).body.view.id;
    const resolved = await new TestClient("10.77.0.9").post("/api/stakeholder-review/resolve", {
      token,
      reviewId,
      status: "approved",
      reviewerName: "Lee Legal",
    });
    expect(resolved.status, resolved.text).toBe(200);
    // One project is shared with the viewer, who is mentioned on it.
    shared = await newProject(owner.client, { name: "Shared roadmap" });
    expect((await owner.client.post(`/api/projects/${shared}/collaborators`, { email: viewer.email, role: "commenter" })).status).toBe(201);
    expect((await owner.client.post(`/api/projects/${shared}/comments`, { content: `@${viewer.email} your view?` })).status).toBe(201);
  });

  it("leads back to where the owner left off: the builder for a conversation, the document for a PRD", async () => {
    const { doc } = await home(owner.client);
    const resume = card(doc, "home-continue");
    expect(resume.heading).toBe("Continue where you left off 3 projects");
    // Newest first: the shared project (a comment), the PRD's project (share link and review asked after the chat), the builder conversation.
    expect(resume.links).toEqual([
      ["Open the document: Shared roadmap", `/projects/${shared}`],
      ["Open the document: Search revamp", `/projects/${written}`],
      ["Open the AI builder: Onboarding flow", `/projects/${chatted}/builder`],
    ]);
    expect(resume.text).toContain("Olive Owner started the PRD conversation");
  });

  it("lists the approval the owner can decide, the decided review and the unread mention, each linking where to act", async () => {
    const { doc } = await home(owner.client);
    const waiting = card(doc, "home-waiting");
    expect(waiting.heading).toBe("Waiting for you 2 items");
    expect(waiting.links).toEqual([
      ["Moving a project to Approved: Held launch", "/approvals"],
      ["Legal sign-off", `/projects/${written}/sharing`],
    ]);
    expect(waiting.text).toContain("Requested by Max Member");
    expect(waiting.text).toContain("Approved");
    expect(waiting.text).toContain("by Lee Legal");

    const mentions = card(doc, "home-mentions");
    expect(mentions.heading).toBe("Mentions 1 unread");
    expect(mentions.links).toEqual([
      ["Max Member mentioned you on Search revamp", `/projects/${written}#comment-${commentId}`],
      ["All notifications", "/notifications"],
    ]);
    expect(mentions.text).toContain("can you check the ranking section?");
    expect(mentions.text).toContain("New");

    const recent = card(doc, "home-recent");
    expect(recent.heading).toBe("Recent projects 5 projects");
    const latestFirst = await db.selectFrom("projects").select("id").where("orgId", "=", orgId).orderBy("updatedAt", "desc").orderBy("seq", "desc").execute();
    expect(latestFirst).toHaveLength(5);
    expect(recent.links.slice(0, 5).map(([, href]) => href)).toEqual(latestFirst.map(({ id }) => `/projects/${id}`));
    expect(recent.text).toContain("In review");
    expect(recent.links.at(-1)).toEqual(["All 5 projects", "/projects"]);
  });

  it("shows the member the project assigned to them in review, and no approval they asked for themselves", async () => {
    const { doc } = await home(member.client);
    const waiting = card(doc, "home-waiting");
    expect(waiting.heading).toBe("Waiting for you 1 item");
    expect(waiting.links).toEqual([["Pricing page", `/projects/${inReview}`]]);
    expect(waiting.text).toContain("Assigned to you, in review (1)");
  });

  it("keeps a read mention but drops its New mark; an approval decided leaves the list", async () => {
    await db.updateTable("notifications").set({ readAt: new Date().toISOString() }).where("userId", "=", owner.user.id).execute();
    const request = await db.selectFrom("approvalRequests").select("id").where("targetId", "=", held).executeTakeFirstOrThrow();
    expect((await owner.client.post(`/api/approvals/${request.id}/approve`, {})).status).toBe(200);
    const { doc } = await home(owner.client);
    expect(card(doc, "home-mentions").heading).toBe("Mentions 0 unread");
    expect(card(doc, "home-mentions").links[0]).toEqual(["Max Member mentioned you on Search revamp", `/projects/${written}#comment-${commentId}`]);
    expect(card(doc, "home-mentions").text).not.toContain("New");
    expect(card(doc, "home-waiting").heading).toBe("Waiting for you 1 item");
  });

  it("shows a viewer only the project shared with them, and their mention on it", async () => {
    const { doc, text } = await home(viewer.client);
    const recent = card(doc, "home-recent");
    expect(recent.heading).toBe("Recent projects 1 project");
    expect(recent.links).toEqual([
      ["Shared roadmap", `/projects/${shared}`],
      ["All 1 project", "/projects"],
    ]);
    expect(card(doc, "home-mentions").links[0]).toEqual([
      "Olive Owner mentioned you on Shared roadmap",
      expect.stringMatching(new RegExp(`^/projects/${shared}#comment-`)),
    ]);
    // A viewer creates nothing: the empty card points to the projects shared with them.
    expect(card(doc, "home-continue").links).toEqual([["Browse projects", "/projects"]]);
    for (const name of ["Held launch", "Pricing page", "Search revamp", "Onboarding flow"]) expect(text).not.toContain(name);

    // Unshared, the project and the mention leave their home.
    const collaborators = await owner.client.get(`/api/projects/${shared}/collaborators`);
    const row = collaborators.body.collaborators.find((c: any) => c.user.id === viewer.user.id);
    expect((await owner.client.delete(`/api/projects/${shared}/collaborators/${row.id}`)).status).toBe(200);
    const after = await home(viewer.client);
    expect(card(after.doc, "home-recent").heading).toBe("Recent projects 0 projects");
    expect(card(after.doc, "home-mentions").heading).toBe("Mentions 0 unread");
    expect(after.text).not.toContain("Shared roadmap");
    expect(card(after.doc, "home-recent").links).toEqual([["Browse projects", "/projects"]]);
  });

  it("shows another organization's member none of it, nor the same person while they work in another organization", async () => {
    const outsider = await signedUpClient({ name: "Oscar Outsider" });
    const outside = await home(outsider.client);
    for (const name of ["Held launch", "Pricing page", "Search revamp", "Onboarding flow", "Shared roadmap", "Legal sign-off"])
      expect(outside.text).not.toContain(name);
    expect(card(outside.doc, "home-recent").heading).toBe("Recent projects 0 projects");

    // The owner, switched to another organization, sees only that one: notifications are personal, but the home
    // is per organization, so even an unread mention of the first one stays out.
    await db.updateTable("notifications").set({ readAt: null }).where("userId", "=", owner.user.id).where("type", "=", "mention").execute();
    expect(card((await home(owner.client)).doc, "home-mentions").heading).toBe("Mentions 1 unread");
    await db.updateTable("sessions").set({ orgId: outsider.organization.id }).where("userId", "=", owner.user.id).execute();
    await addMembership(db, outsider.organization.id, owner.user.id, "member");
    const elsewhere = await home(owner.client);
    for (const id of ["home-continue", "home-waiting", "home-mentions"]) expect(card(elsewhere.doc, id).heading).toMatch(/ 0 /);
    expect(card(elsewhere.doc, "home-recent").heading).toBe("Recent projects 0 projects");
    for (const name of ["Held launch", "Search revamp", "Shared roadmap", "Legal sign-off"]) expect(elsewhere.text).not.toContain(name);
    await db.updateTable("sessions").set({ orgId }).where("userId", "=", owner.user.id).execute();
  });
});

describe("mentions follow the comments", () => {
  it("appear when an edit adds one, and leave when an edit drops it or the comment is deleted", async () => {
    const owner = await signedUpClient({ name: "Edith Owner" });
    const member = await joinOrg(owner.organization.id, "member", "Milo Member");
    const project = await newProject(owner.client, { name: "Edited mentions" });
    const url = `/api/projects/${project}/comments`;
    const plain = (await member.client.post(url, { content: "No one named yet." })).body.comment.id as string;
    const mentions = async () => card((await home(owner.client)).doc, "home-mentions").links;
    expect(await mentions()).toEqual([["Open notifications", "/notifications"]]);

    expect((await member.client.patch(`${url}/${plain}`, { content: `Now asking @${owner.email}` })).status).toBe(200);
    expect((await mentions())[0]).toEqual(["Milo Member mentioned you on Edited mentions", `/projects/${project}#comment-${plain}`]);
    // A reply leads to its thread.
    const reply = await member.client.post(url, { content: `@${owner.email} and a reply`, parentId: plain });
    expect(reply.status, reply.text).toBe(201);
    expect((await mentions()).filter(([, href]) => href === `/projects/${project}#comment-${plain}`)).toHaveLength(2);

    expect((await member.client.patch(`${url}/${plain}`, { content: "Never mind." })).status).toBe(200);
    expect((await member.client.delete(`${url}/${reply.body.comment.id}`)).status).toBe(200);
    expect(await mentions()).toEqual([["Open notifications", "/notifications"]]);
  });
});

describe("the getting-started checklist", () => {
  it("steps aside, folded below the cards, once every step is done", async () => {
    const { client, user } = await signedUpClient({ name: "Dana Done" });
    const project = await newProject(client, { name: "Done project" });
    await client.post(`/api/projects/${project}/prd`, { content: "# Done\n\nAll of it." });
    await client.post(`/api/projects/${project}/share`, {});
    await client.patch("/api/user/profile", { jobTitle: "PM" });
    await client.post("/api/invitations", { email: `invitee-${Date.now()}@example.com`, role: "member" });
    const progress = await client.get("/api/user/onboarding-progress");
    expect(progress.body.completedCount, JSON.stringify(progress.body)).toBe(5);
    const { doc, text } = await home(client);
    const checklist = doc.querySelector('section[aria-labelledby="getting-started"]')!;
    expect(checklist.querySelector("details:not([open]) summary")?.textContent).toBe("All 5 steps done — nice work. Show the steps");
    expect(checklist.querySelectorAll("details li")).toHaveLength(5);
    // Below the cards now.
    expect(doc.querySelector(".home-grid")!.compareDocumentPosition(checklist) & 4).toBe(4);
    expect(text).toContain("Here is what needs you, and where you left off.");
    // The continue card now has the project the person worked on.
    expect(card(doc, "home-continue").links[0]).toEqual(["Open the document: Done project", `/projects/${project}`]);
    expect(user.name).toBe("Dana Done");
  });
});
