import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { Migrator, sql } from "kysely";
import { beforeAll, describe, expect, it } from "vitest";
import { createDb } from "#db/client";
import { migrations } from "#db/migrations/index";
import { db } from "~/db.server";
import { decrypt } from "~/utils/crypto.server";
import { sha256 } from "~/utils/ids.server";
import { redactPath } from "~/utils/log.server";
import { type ApiResult, signedUpClient, TestClient } from "../support/client";
import { parseHtml } from "../support/html";
import { type Account, expectError, joinOrg, setPlan } from "../support/org";
import { pageText } from "../support/page";

/**
 * Personal stakeholder review links (docs/collaboration.md, "Personal review
 * links"): each review request has its own secret link, decisions through it
 * are recorded under the named reviewer, the share link can be shut out.
 */

let ip = 0;
/** A visitor without a session, on an address of their own (the per-IP limits do not collide). */
const anonymous = () => new TestClient(`10.77.${Math.floor(++ip / 250)}.${(ip % 250) + 1}`);

const FORM = { "Content-Type": "application/x-www-form-urlencoded" };
const postForm = (client: TestClient, path: string, fields: Record<string, string>) =>
  client.call("POST", path, { body: new URLSearchParams(fields), headers: FORM });

const tokenOf = (reviewUrl: string) => decodeURIComponent(new URL(reviewUrl).pathname.split("/").pop()!);

async function newProject(client: TestClient, name: string, content?: string) {
  const res = await client.post("/api/projects", { name });
  expect(res.status, res.text).toBe(201);
  if (content) expect((await client.post(`/api/projects/${res.body.id}/prd`, { content })).status).toBe(201);
  return res.body.id as string;
}

async function requestReview(client: TestClient, projectId: string, body: Record<string, unknown>) {
  const res = await client.post(`/api/projects/${projectId}/stakeholder-views`, body);
  expect(res.status, res.text).toBe(201);
  return res.body.view as { id: string; reviewUrl: string; [k: string]: unknown };
}

const view = async (client: TestClient, projectId: string, id: string) =>
  ((await client.get(`/api/projects/${projectId}/stakeholder-views`)).body.views as any[]).find((v) => v.id === id);

const textOf = (res: ApiResult) => pageText(res);

let owner: Account;
let member: Account; // member of org A who did not create the project: reads, does not manage
let outsider: Account; // owner of org B
let orgA: string;
let projectId: string;
let shareToken: string;
let dana: { id: string; reviewUrl: string };
let sam: { id: string; reviewUrl: string };
let foreign: { id: string; reviewUrl: string }; // org B's review request

beforeAll(async () => {
  owner = await signedUpClient({ name: "Olivia Owner" });
  orgA = owner.organization.id;
  await setPlan(orgA, "pro");
  member = await joinOrg(orgA, "member", "Mia Member");
  outsider = await signedUpClient({ name: "Otto Outsider" });
  await setPlan(outsider.organization.id, "pro");
  projectId = await newProject(owner.client, "Kiosk checkout", "# Kiosk checkout\n\nGuests pay in one tap at the kiosk.");
  shareToken = (await owner.client.post(`/api/projects/${projectId}/share`, {})).body.shareToken;
  dana = await requestReview(owner.client, projectId, {
    name: "Sales sign-off",
    stakeholderName: "Dana Lee",
    audience: "Head of Sales",
    stakeholderEmail: "Dana@Example.com",
    personalLinkOnly: true,
  });
  sam = await requestReview(owner.client, projectId, { name: "Support sign-off", stakeholderName: "Sam Support" });
  const outsiderProject = await newProject(outsider.client, "Other org's PRD", "# Secret\n\nOther org.");
  foreign = await requestReview(outsider.client, outsiderProject, { name: "Their review", stakeholderName: "Ola Other" });
});

describe("every review request has its own personal link", () => {
  it("is a random 256-bit token, stored as a SHA-256 hash and encrypted, never in clear", async () => {
    for (const r of [dana, sam, foreign]) expect(r.reviewUrl).toMatch(/^http:\/\/localhost:3000\/review\/[A-Za-z0-9_-]{43}$/);
    expect(new Set([dana, sam, foreign].map((r) => tokenOf(r.reviewUrl))).size).toBe(3);
    const row = await db.selectFrom("stakeholderViews").selectAll().where("id", "=", dana.id).executeTakeFirstOrThrow();
    const token = tokenOf(dana.reviewUrl);
    expect(row.reviewTokenHash).toBe(sha256(token));
    expect(row.reviewTokenEncrypted).not.toContain(token);
    expect(decrypt(row.reviewTokenEncrypted!)).toBe(token);
    expect(JSON.stringify(row)).not.toContain(token);
  });

  it("is shown to those who manage the project, not to other readers; plain views have none", async () => {
    expect((await view(owner.client, projectId, dana.id)).reviewUrl).toBe(dana.reviewUrl);
    const seen = await view(member.client, projectId, dana.id);
    expect(seen).toMatchObject({ id: dana.id, reviewUrl: null, personalLinkOnly: true, stakeholderEmail: "dana@example.com" });
    const plain = await requestReview(owner.client, projectId, { name: "FYI", requestReview: false });
    expect(plain).toMatchObject({ kind: "view", reviewUrl: null, personalLinkOnly: false });
    await owner.client.delete(`/api/projects/${projectId}/stakeholder-views/${plain.id}`);
  });

  it("refuses a stranger from another organization: the views, the send and the sharing page are 404", async () => {
    expectError(await outsider.client.get(`/api/projects/${projectId}/stakeholder-views`), 404, "NOT_FOUND");
    expectError(await outsider.client.post(`/api/projects/${projectId}/stakeholder-views/${dana.id}/send-link`), 404, "NOT_FOUND");
    expect((await outsider.client.get(`/projects/${projectId}/sharing`)).status).toBe(404);
    // And one org's view id through the other's project.
    expectError(await owner.client.post(`/api/projects/${projectId}/stakeholder-views/${foreign.id}/send-link`), 404, "NOT_FOUND");
  });
});

describe("the personal review page", () => {
  it("shows the PRD and the request, without an account and without JavaScript", async () => {
    const res = await anonymous().get(new URL(dana.reviewUrl).pathname);
    expect(res.status).toBe(200);
    expect(res.headers.get("Cache-Control")).toBe("no-store");
    const doc = parseHtml(res.text);
    expect(doc.querySelector("h1")?.textContent).toBe("Kiosk checkout");
    expect(doc.querySelector('[data-testid="review-request"]')?.textContent).toBe("Dana Lee, Head of Sales, is asked to review this PRD by Olivia Owner.");
    expect(textOf(res)).toContain("Guests pay in one tap at the kiosk.");
    const form = doc.querySelector("form[method=post]")!;
    expect([...form.querySelectorAll("button")].map((b) => [b.textContent, b.getAttribute("name"), b.getAttribute("value")])).toEqual([
      ["Approve", "status", "approved"],
      ["Request changes", "status", "rejected"],
    ]);
    expect(doc.querySelector('label[for="review-feedback"]')?.textContent).toBe("Feedback (optional)");
    // Neither the share token nor anyone else's link is on the page.
    for (const secret of [shareToken, tokenOf(sam.reviewUrl), tokenOf(foreign.reviewUrl)]) expect(res.text).not.toContain(secret);
  });

  it("records the decision under the named reviewer (not a typed name), through the personal link; the latest decision wins", async () => {
    const visitor = anonymous();
    const path = new URL(dana.reviewUrl).pathname;
    const posted = await postForm(visitor, path, { status: "approved", feedback: "Ship it", reviewerName: "Mallory" });
    expect(posted.status, posted.text).toBe(302);
    expect(posted.headers.get("Location")).toBe(`${path}?decided=1`);
    expect(await view(owner.client, projectId, dana.id)).toMatchObject({
      reviewStatus: "approved",
      feedback: "Ship it",
      resolvedByName: "Dana Lee",
      resolvedVia: "personal_link",
      resolvedByEmail: null,
    });
    const activity = await db
      .selectFrom("projectActivity")
      .select(["actorName", "summary"])
      .where("projectId", "=", projectId)
      .where("action", "=", "review.resolved")
      .orderBy("createdAt", "desc")
      .executeTakeFirstOrThrow();
    expect(activity).toEqual({ actorName: "Dana Lee", summary: "Dana Lee approved “Sales sign-off” (personal review link): Ship it" });

    const after = await visitor.get(`${path}?decided=1`);
    expect(textOf(after)).toContain("Thank you. The team has your decision.");
    expect(parseHtml(after.text).querySelector('[data-testid="review-decision"]')?.textContent).toMatch(/^You approved this PRD on .+ UTC\. You can change/);

    expect((await postForm(visitor, path, { status: "rejected", feedback: "Pricing is wrong" })).status).toBe(302);
    expect(await view(owner.client, projectId, dana.id)).toMatchObject({ reviewStatus: "rejected", feedback: "Pricing is wrong", resolvedByName: "Dana Lee" });
    expect(parseHtml((await visitor.get(path)).text).querySelector('[data-testid="review-decision"]')?.textContent).toMatch(/^You requested changes on /);
  });

  it("puts a bad decision's error beside its control and records nothing", async () => {
    const path = new URL(dana.reviewUrl).pathname;
    const before = await view(owner.client, projectId, dana.id);
    const long = await postForm(anonymous(), path, { status: "approved", feedback: "x".repeat(5001) });
    expect(long.status).toBe(400);
    const doc = parseHtml(long.text);
    expect(doc.querySelector("#review-feedback")?.getAttribute("aria-invalid")).toBe("true");
    expect(doc.querySelector("#review-feedback-error")?.textContent).toBe("Keep the feedback under 5,000 characters");
    const noStatus = await postForm(anonymous(), path, { status: "maybe" });
    expect(noStatus.status).toBe(400);
    expect(textOf(noStatus)).toContain("Choose Approve or Request changes");
    expect(await view(owner.client, projectId, dana.id)).toEqual(before);
  });

  it("is a 404 page for an unknown or forged token, read or posted", async () => {
    const real = tokenOf(sam.reviewUrl);
    const forged = `${real.slice(0, -1)}${real.endsWith("A") ? "B" : "A"}`;
    for (const token of ["nope", forged, shareToken]) {
      const res = await anonymous().get(`/review/${token}`);
      expect(res.status, token).toBe(404);
      expect(parseHtml(res.text).querySelector("h1")?.textContent).toBe("Page not found");
      expect((await postForm(anonymous(), `/review/${token}`, { status: "approved" })).status).toBe(404);
    }
    expect((await view(owner.client, projectId, sam.id)).reviewStatus).toBe("pending");
  });

  it("limits unknown tokens to 30 a minute per address, then 429 (other addresses unaffected)", async () => {
    const prober = anonymous();
    for (let i = 0; i < 30; i++) expect((await prober.get(`/review/guess-${i}`)).status).toBe(404);
    expect((await prober.get("/review/guess-31")).status).toBe(429);
    expectError(await prober.get(`/api/stakeholder-review/by-token?token=guess-32`), 429, "RATE_LIMITED");
    expect((await anonymous().get(new URL(sam.reviewUrl).pathname)).status).toBe(200);
  });
});

describe("POST /api/stakeholder-review/resolve with a personal token", () => {
  it("decides its own review under the reviewer's name, ignoring reviewerName", async () => {
    const res = await anonymous().post("/api/stakeholder-review/resolve", {
      token: tokenOf(sam.reviewUrl),
      reviewId: sam.id,
      status: "approved",
      reviewerName: "Someone Else",
    });
    expect(res.status, res.text).toBe(200);
    expect(res.body.review).toMatchObject({
      id: sam.id,
      reviewStatus: "approved",
      resolvedByName: "Sam Support",
      resolvedVia: "personal_link",
      reviewUrl: null,
    });
  });

  it("cannot decide another review, of the same project or of another organization (404), nor decide through another org's token", async () => {
    const url = "/api/stakeholder-review/resolve";
    const before = await view(owner.client, projectId, dana.id);
    expectError(await anonymous().post(url, { token: tokenOf(sam.reviewUrl), reviewId: dana.id, status: "approved" }), 404, "NOT_FOUND");
    expectError(await anonymous().post(url, { token: tokenOf(sam.reviewUrl), reviewId: foreign.id, status: "approved" }), 404, "NOT_FOUND");
    expectError(await anonymous().post(url, { token: tokenOf(foreign.reviewUrl), reviewId: sam.id, status: "rejected" }), 404, "NOT_FOUND");
    expect(await view(owner.client, projectId, dana.id)).toEqual(before);
    expect(
      (
        await view(
          outsider.client,
          (
            await db.selectFrom("stakeholderViews").select("projectId").where("id", "=", foreign.id).executeTakeFirstOrThrow()
          ).projectId,
          foreign.id,
        )
      ).reviewStatus,
    ).toBe("pending");
    expectError(await anonymous().post(url, { token: "forged-token", reviewId: sam.id, status: "approved" }), 401, "INVALID_TOKEN");
  });

  it("allows 20 decisions a minute per link, then 429", async () => {
    const r = await requestReview(owner.client, projectId, { name: "Busy", stakeholderName: "Bo Busy" });
    const body = { token: tokenOf(r.reviewUrl), reviewId: r.id, status: "approved" };
    for (let i = 0; i < 20; i++) expect((await anonymous().post("/api/stakeholder-review/resolve", body)).status).toBe(200);
    expectError(await anonymous().post("/api/stakeholder-review/resolve", body), 429, "RATE_LIMITED");
    await owner.client.delete(`/api/projects/${projectId}/stakeholder-views/${r.id}`);
  });
});

describe("the share link", () => {
  it("still decides requests that allow it, recorded as an unverified typed name", async () => {
    const res = await anonymous().post("/api/stakeholder-review/resolve", { token: shareToken, reviewId: sam.id, status: "rejected", reviewerName: "Sam?" });
    expect(res.status, res.text).toBe(200);
    expect(res.body.review).toMatchObject({
      reviewStatus: "rejected",
      resolvedByName: "Sam?",
      resolvedVia: "share_link",
      resolvedByEmail: null,
      reviewUrl: null,
    });
    const page = textOf(await owner.client.get(`/projects/${projectId}/sharing`));
    expect(page).toContain("Changes requested by Sam?");
    expect(page).toContain("share link: name given on the share link, not verified");
  });

  it("is refused (403) on a personal-link-only request, in the API and on the share page", async () => {
    const before = await view(owner.client, projectId, dana.id);
    const res = await anonymous().post("/api/stakeholder-review/resolve", { token: shareToken, reviewId: dana.id, status: "approved", reviewerName: "Dana" });
    expectError(res, 403, "FORBIDDEN");
    expect(res.body.error).toBe("Dana Lee reviews through a personal review link, not the share link. Use the link the team sent them.");
    const visitor = anonymous();
    const page = await visitor.get(`/share/${shareToken}`);
    const doc = parseHtml(page.text);
    expect(doc.querySelectorAll(`input[name="reviewId"][value="${dana.id}"]`)).toHaveLength(0);
    expect(doc.querySelectorAll(`input[name="reviewId"][value="${sam.id}"]`)).toHaveLength(1);
    expect(pageText(page)).toContain("Answered on the reviewer's personal review link");
    const posted = await postForm(visitor, `/share/${shareToken}`, { intent: "review", reviewId: dana.id, status: "approved" });
    expect(posted.status).toBe(403);
    expect(await view(owner.client, projectId, dana.id)).toEqual(before);
  });

  it("by-token lists the requests without any personal link or e-mail address; a personal token gets only its own request", async () => {
    const shared = await anonymous().get(`/api/stakeholder-review/by-token?token=${shareToken}`);
    expect(shared.status, shared.text).toBe(200);
    expect(shared.body.reviews.map((r: any) => r.id)).toEqual([dana.id, sam.id]);
    for (const r of shared.body.reviews) expect(r).toMatchObject({ reviewUrl: null, stakeholderEmail: null, resolvedByEmail: null });
    const sharePage = await anonymous().get(`/share/${shareToken}`);
    for (const secret of [dana, sam].map((r) => tokenOf(r.reviewUrl))) {
      expect(shared.text).not.toContain(secret);
      expect(sharePage.text).not.toContain(secret);
    }
    expect(shared.text).not.toContain("dana@example.com");

    const own = await anonymous().get(`/api/stakeholder-review/by-token?token=${encodeURIComponent(tokenOf(sam.reviewUrl))}`);
    expect(own.status, own.text).toBe(200);
    expect(own.body.project).toEqual({ id: projectId, name: "Kiosk checkout", status: "DRAFT" });
    expect(own.body.reviews.map((r: any) => r.id)).toEqual([sam.id]);
    expect(own.body.reviews[0].reviewUrl).toBeNull();
    expect(own.text).not.toContain(tokenOf(dana.reviewUrl));
    expect(own.text).not.toContain(shareToken);
  });

  it("keeps working for the personal link after the share link is revoked", async () => {
    const p = await newProject(owner.client, "Revoked share", "# Revoked\n\nStill reviewable.");
    const token = (await owner.client.post(`/api/projects/${p}/share`, {})).body.shareToken;
    const r = await requestReview(owner.client, p, { name: "Legal", stakeholderName: "Lee" });
    await owner.client.delete(`/api/projects/${p}/share`);
    expectError(await anonymous().get(`/api/stakeholder-review/by-token?token=${token}`), 401, "INVALID_TOKEN");
    expect((await anonymous().get(new URL(r.reviewUrl).pathname)).status).toBe(200);
    // Deleting the request ends its link.
    await owner.client.delete(`/api/projects/${p}/stakeholder-views/${r.id}`);
    expect((await anonymous().get(new URL(r.reviewUrl).pathname)).status).toBe(404);
  });
});

describe("sending the link by e-mail", () => {
  const mails = (to: string) =>
    db.selectFrom("emails").select(["toAddress", "kind", "subject", "text", "orgId"]).where("toAddress", "=", to).orderBy("createdAt").execute();

  it("mails the personal link to the reviewer with sendLink (to the outbox without SMTP) and sets linkSentAt", async () => {
    const r = await requestReview(owner.client, projectId, {
      name: "Finance sign-off",
      stakeholderName: "Fay Finance",
      stakeholderEmail: "fay@example.com",
      sendLink: true,
    });
    expect(r.linkSentAt).toEqual(expect.any(String));
    const [mail, ...more] = await mails("fay@example.com");
    expect(more).toEqual([]);
    expect(mail).toMatchObject({ kind: "stakeholder_review", orgId: orgA, subject: "Olivia Owner asks you to review “Kiosk checkout”" });
    expect(mail!.text).toContain(`Review the PRD: ${r.reviewUrl}`);
    expect(mail!.text).toContain("Hi Fay Finance,");

    const { runDueJobs } = await import("~/jobs/worker.server");
    (await import("~/jobs/handlers.server")).registerBackgroundWork();
    await runDueJobs();
    const filed = await db.selectFrom("emails").select("status").where("toAddress", "=", "fay@example.com").executeTakeFirstOrThrow();
    expect(filed.status).toBe("outbox");
    // Owners and admins read it in the outbox; a member, even one registered at the reviewer's address, does not.
    expect(textOf(await owner.client.get("/settings/outbox"))).toContain(tokenOf(r.reviewUrl));
    const lookalike = await joinOrg(orgA, "member", "Fay Lookalike");
    await db.updateTable("users").set({ email: "fay@example.com" }).where("id", "=", lookalike.user.id).execute();
    await db
      .updateTable("emails")
      .set({ createdAt: new Date(Date.now() + 60_000).toISOString() })
      .where("toAddress", "=", "fay@example.com")
      .execute();
    expect((await lookalike.client.get("/settings/outbox")).text).not.toContain(tokenOf(r.reviewUrl));

    // A decision through the mailed link is confirmed by e-mail.
    const res = await anonymous().post("/api/stakeholder-review/resolve", { token: tokenOf(r.reviewUrl), reviewId: r.id, status: "approved" });
    expect(res.body.review).toMatchObject({ resolvedByName: "Fay Finance", resolvedVia: "personal_link", resolvedByEmail: "fay@example.com" });
    expect(textOf(await owner.client.get(`/projects/${projectId}/sharing`))).toContain("personal review link, confirmed by e-mail (fay@example.com)");
  });

  it("needs an e-mail address and a review request", async () => {
    const url = `/api/projects/${projectId}/stakeholder-views`;
    const noEmail = await owner.client.post(url, { name: "X", stakeholderName: "Xi", sendLink: true });
    expectError(noEmail, 400, "VALIDATION_ERROR");
    expect(noEmail.body.details[0].path).toBe("stakeholderEmail");
    const notReview = await owner.client.post(url, { name: "X", stakeholderEmail: "x@example.com", requestReview: false, sendLink: true });
    expectError(notReview, 400, "VALIDATION_ERROR");
    expect(notReview.body.details[0].path).toBe("sendLink");
    expect(await mails("x@example.com")).toEqual([]);
  });

  it("sends again on request, for those who manage the project only", async () => {
    const url = `/api/projects/${projectId}/stakeholder-views/${dana.id}/send-link`;
    expectError(await member.client.post(url), 403, "FORBIDDEN");
    const res = await owner.client.post(url);
    expect(res.status, res.text).toBe(200);
    expect(res.body.view).toMatchObject({ id: dana.id, linkSentAt: expect.any(String), reviewUrl: dana.reviewUrl });
    const sent = await mails("dana@example.com");
    expect(sent).toHaveLength(1);
    expect(sent[0]!.text).toContain(dana.reviewUrl);
    const unmailable = await owner.client.post(`/api/projects/${projectId}/stakeholder-views/${sam.id}/send-link`);
    expectError(unmailable, 400, "VALIDATION_ERROR");
    expect(unmailable.body.details[0].path).toBe("stakeholderEmail");
  });
});

describe("the sharing page (JavaScript off)", () => {
  const sharing = () => `/projects/${projectId}/sharing`;

  it("lists each request with its personal link to copy, the decision and the link's state; readers get no links", async () => {
    const page = await owner.client.get(sharing());
    const doc = parseHtml(page.text);
    const links = [...doc.querySelectorAll('[data-testid="review-url"]')].map((i) => i.getAttribute("value"));
    expect(links).toEqual(expect.arrayContaining([dana.reviewUrl, sam.reviewUrl]));
    const label = doc.querySelector(`label[for="review-link-${dana.id}"]`);
    expect(label?.textContent).toBe("Personal link");
    expect(pageText(page)).toContain("Only this link can decide.");
    expect(pageText(page)).toContain("Changes requested by Dana Lee");
    const readers = await member.client.get(sharing());
    expect(readers.status).toBe(200);
    expect(parseHtml(readers.text).querySelectorAll('[data-testid="review-url"]')).toHaveLength(0);
    for (const r of [dana, sam]) expect(readers.text).not.toContain(tokenOf(r.reviewUrl));
  });

  it("asks for the reviewer's name, with the error beside the field", async () => {
    const res = await postForm(owner.client, sharing(), { intent: "view-create", requestReview: "true", name: "Ops sign-off", stakeholderName: "" });
    expect(res.status).toBe(400);
    const doc = parseHtml(res.text);
    expect(doc.querySelector("#view-stakeholder")?.getAttribute("aria-invalid")).toBe("true");
    expect(doc.querySelector("#view-stakeholder-error")?.textContent).toBe("Enter the reviewer's name");
    expect(doc.querySelector<HTMLInputElement>("#view-name")?.getAttribute("value")).toBe("Ops sign-off");
  });

  it("creates a personal-link-only request, mails it, and sends it again", async () => {
    const res = await postForm(owner.client, sharing(), {
      intent: "view-create",
      requestReview: "true",
      name: "Ops sign-off",
      stakeholderName: "Oona Ops",
      audience: "Operations",
      stakeholderEmail: "oona@example.com",
      personalLinkOnly: "on",
      sendLink: "on",
    });
    expect(res.status, res.text).toBe(200);
    expect(pageText(res)).toContain("Review requested. Oona Ops's personal link was e-mailed to oona@example.com.");
    const row = await db.selectFrom("stakeholderViews").selectAll().where("name", "=", "Ops sign-off").executeTakeFirstOrThrow();
    expect(row).toMatchObject({ personalLinkOnly: 1, reviewStatus: "pending", audience: "Operations", reviewLinkSentTo: "oona@example.com" });
    const again = await postForm(owner.client, sharing(), { intent: "view-send-link", viewId: row.id });
    expect(pageText(again)).toContain("The personal link for “Ops sign-off” was e-mailed to oona@example.com.");
    expect(await db.selectFrom("emails").select("id").where("toAddress", "=", "oona@example.com").execute()).toHaveLength(2);
    // Unchecked, the option is off.
    await postForm(owner.client, sharing(), { intent: "view-create", requestReview: "true", name: "Open review", stakeholderName: "Opal" });
    const open = await db
      .selectFrom("stakeholderViews")
      .select(["personalLinkOnly", "reviewLinkSentAt"])
      .where("name", "=", "Open review")
      .executeTakeFirstOrThrow();
    expect(open).toEqual({ personalLinkOnly: 0, reviewLinkSentAt: null });
    expect(
      parseHtml((await owner.client.get(sharing())).text)
        .querySelector<HTMLInputElement>('input[name="personalLinkOnly"]')
        ?.hasAttribute("checked"),
    ).toBe(true);
  });
});

describe("the project overview", () => {
  it("shows a Reviews line: who decided what, when, through which link, with the feedback, and no links", async () => {
    const res = await member.client.get(`/projects/${projectId}`);
    expect(res.status).toBe(200);
    const section = parseHtml(res.text).querySelector('section[aria-labelledby="reviews-summary-heading"]');
    const text = section?.textContent?.replace(/\s+/g, " ") ?? "";
    expect(text).toContain("Changes requested by Dana Lee on");
    expect(text).toContain("personal review link");
    expect(text).toContain("Pricing is wrong");
    expect(text).toContain("Approved by Fay Finance");
    expect(text).toContain("confirmed by e-mail (fay@example.com)");
    expect(text).toMatch(/\d+ waiting/);
    expect(section?.querySelector("a")?.getAttribute("href")).toBe(`/projects/${projectId}/sharing`);
    for (const r of [dana, sam]) expect(res.text).not.toContain(tokenOf(r.reviewUrl));
  });
});

describe("secrets in logs", () => {
  it("the access log writes /review/:token, never the token", () => {
    expect(redactPath(`/review/${tokenOf(dana.reviewUrl)}`)).toBe("/review/:token");
    expect(redactPath("/review/abc.data")).toBe("/review/:token");
  });
});

describe("migration 0022_stakeholder_review_links", () => {
  it("gives existing review requests a personal link, and records earlier decisions as made through the share link", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "review-links-migration-"));
    const old = createDb(path.join(dir, "old.db"));
    try {
      const migrator = new Migrator({ db: old.db, provider: { getMigrations: async () => migrations } });
      expect((await migrator.migrateTo("0021_live_docs")).error).toBeUndefined();
      old.sqlite.pragma("foreign_keys = OFF");
      const insert = (id: string, reviewStatus: string | null, resolvedAt: string | null) =>
        sql`INSERT INTO stakeholderViews (id, projectId, name, kind, reviewStatus, resolvedAt, createdAt, updatedAt)
            VALUES (${id}, 'p1', ${id}, ${reviewStatus ? "review" : "view"}, ${reviewStatus}, ${resolvedAt}, '2025-01-01', '2025-01-01')`.execute(old.db);
      await insert("pending", "pending", null);
      await insert("decided", "approved", "2025-01-02T00:00:00.000Z");
      await insert("plain", null, null);
      expect((await migrator.migrateTo("0022_stakeholder_review_links")).error).toBeUndefined();
      const rows = await old.db.selectFrom("stakeholderViews").selectAll().orderBy("id").execute();
      const byId = Object.fromEntries(rows.map((r) => [r.id, r]));
      for (const id of ["pending", "decided"]) {
        const token = decrypt(byId[id]!.reviewTokenEncrypted!);
        expect(token).toMatch(/^[A-Za-z0-9_-]{43}$/);
        expect(byId[id]!.reviewTokenHash).toBe(sha256(token!));
      }
      expect(byId.pending!.reviewTokenHash).not.toBe(byId.decided!.reviewTokenHash);
      expect(byId.plain).toMatchObject({ reviewTokenHash: null, reviewTokenEncrypted: null, resolvedVia: null, personalLinkOnly: 0 });
      expect(byId.decided!.resolvedVia).toBe("share_link");
      expect(byId.pending!.resolvedVia).toBeNull();
      // The look-up hash is unique.
      await expect(sql`UPDATE stakeholderViews SET reviewTokenHash = ${byId.decided!.reviewTokenHash} WHERE id = 'pending'`.execute(old.db)).rejects.toThrow(
        /UNIQUE/,
      );
    } finally {
      await old.db.destroy();
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
