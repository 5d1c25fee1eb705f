import { beforeAll, describe, expect, it } from "vitest";
import { mergePrd } from "~/domain/prd/merge";
import { ORIGIN, type TestClient, signedUpClient } from "../support/client";
import { pageText } from "../support/page";
import { type Account, expectError, joinOrg } from "../support/org";

/**
 * Two saves racing from the same PRD version: with `merge: true` they are
 * merged three-way against that version, and only edits to the same lines
 * are a conflict (docs/projects.md, "Lost-update protection").
 */

const BASE = ["# Checkout", "", "## Problem", "Checkout is slow.", "", "## Goals", "- Faster checkout", "", "## Risks", "- None yet", ""].join("\n");

let ana: Account;
let ben: Account;
let projectId: string;

beforeAll(async () => {
  ana = await signedUpClient({ name: "Ana Author" });
  ben = await joinOrg(ana.organization.id, "admin", "Ben Builder"); // admins edit every project
});

async function freshPrd() {
  projectId = (await ana.client.post("/api/projects", { name: `Merge ${Math.random()}` })).body.id;
  const created = await ana.client.post(`/api/projects/${projectId}/prd`, { content: BASE });
  expect(created.status).toBe(201);
  return created.body.prd.versionId as string;
}

describe("mergePrd", () => {
  it("takes each side's edits to different lines, and reports the lines both changed", () => {
    const mine = BASE.replace("Checkout is slow.", "Checkout takes 9 seconds on mobile.");
    const theirs = BASE.replace("- None yet", "- Payment provider outage");
    expect(mergePrd(BASE, mine, theirs)).toEqual({ clean: true, content: mine.replace("- None yet", "- Payment provider outage") });
    const clash = mergePrd(BASE, BASE.replace("- Faster checkout", "- Checkout under 3 s"), BASE.replace("- Faster checkout", "- Checkout under 5 s"));
    expect(clash).toEqual({ clean: false, conflicts: [{ base: "- Faster checkout", mine: "- Checkout under 3 s", theirs: "- Checkout under 5 s" }] });
  });
});

describe("PATCH /api/projects/{projectId}/prd with merge: true", () => {
  it("merges two saves that edited different sections from the same version", async () => {
    const base = await freshPrd();
    const first = await ben.client.patch(`/api/projects/${projectId}/prd`, {
      content: BASE.replace("- None yet", "- Payment provider outage"),
      baseVersionId: base,
    });
    expect(first.status, first.text).toBe(200);
    const second = await ana.client.patch(`/api/projects/${projectId}/prd`, {
      content: BASE.replace("Checkout is slow.", "Checkout takes 9 seconds on mobile."),
      baseVersionId: base,
      merge: true,
    });
    expect(second.status, second.text).toBe(200);
    expect(second.body.merged).toBe(true);
    expect(second.body.prd.content).toContain("Checkout takes 9 seconds on mobile.");
    expect(second.body.prd.content).toContain("- Payment provider outage");
    expect(second.body.prd.versionNumber).toBe(3);
  });

  it("refuses edits to the same lines with the conflicting places, and writes nothing", async () => {
    const base = await freshPrd();
    await ben.client.patch(`/api/projects/${projectId}/prd`, { content: BASE.replace("- Faster checkout", "- Checkout under 5 s"), baseVersionId: base });
    const clash = await ana.client.patch(`/api/projects/${projectId}/prd`, {
      content: BASE.replace("- Faster checkout", "- Checkout under 3 s"),
      baseVersionId: base,
      merge: true,
    });
    expectError(clash, 409, "CONFLICT");
    expect(clash.body.conflicts).toEqual([{ base: "- Faster checkout", mine: "- Checkout under 3 s", theirs: "- Checkout under 5 s" }]);
    expect(clash.body.current.content).toContain("- Checkout under 5 s");
    const now = await ana.client.get(`/api/projects/${projectId}/prd`);
    expect(now.body.prd.versionNumber).toBe(2);
  });

  it("without merge a stale save is still refused, as before", async () => {
    const base = await freshPrd();
    await ben.client.patch(`/api/projects/${projectId}/prd`, { content: BASE.replace("- None yet", "- Outage"), baseVersionId: base });
    expectError(await ana.client.patch(`/api/projects/${projectId}/prd`, { content: BASE.replace("slow", "very slow"), baseVersionId: base }), 409, "CONFLICT");
  });

  it("a base version of another project cannot be used to merge", async () => {
    const foreignBase = await freshPrd();
    const own = await freshPrd();
    await ben.client.patch(`/api/projects/${projectId}/prd`, { content: BASE.replace("- None yet", "- Outage"), baseVersionId: own });
    const res = await ana.client.patch(`/api/projects/${projectId}/prd`, {
      content: BASE.replace("slow", "very slow"),
      baseVersionId: foreignBase,
      merge: true,
    });
    expectError(res, 409, "CONFLICT");
    expect(res.body.conflicts).toBeUndefined();
  });
});

describe("the PRD editor page (JavaScript off)", () => {
  const form = (client: TestClient, fields: Record<string, string>) =>
    client.call("POST", `/projects/${projectId}?index`, {
      body: new URLSearchParams({ intent: "save", merge: "true", ...fields }),
      headers: { "Content-Type": "application/x-www-form-urlencoded", Host: new URL(ORIGIN).host },
    });

  it("sends merge with its base version, so a colleague's save to another section is merged in", async () => {
    const base = await freshPrd();
    const page = await ana.client.get(`/projects/${projectId}?edit`);
    expect(page.text).toMatch(/name="merge" value="true"/);
    expect((await form(ben.client, { content: BASE.replace("- None yet", "- Outage"), baseVersionId: base })).status).toBe(200);
    const mine = await form(ana.client, { content: BASE.replace("Checkout is slow.", "Checkout takes 9 s."), baseVersionId: base });
    expect(mine.status).toBe(200);
    expect(pageText(mine)).toContain("Saved as v3: merged with the changes saved since you started editing.");
    const now = await ana.client.get(`/api/projects/${projectId}/prd`);
    expect(now.body.prd.content).toContain("Checkout takes 9 s.");
    expect(now.body.prd.content).toContain("- Outage");
  });

  it("shows the lines both changed, keeping the author's text", async () => {
    const base = await freshPrd();
    await form(ben.client, { content: BASE.replace("- Faster checkout", "- Checkout under 5 s"), baseVersionId: base });
    const clash = await form(ana.client, { content: BASE.replace("- Faster checkout", "- Checkout under 3 s"), baseVersionId: base });
    expect(clash.status).toBe(409);
    const text = pageText(clash);
    expect(text).toContain("you both changed the same lines in 1 place");
    expect(text).toContain("- Checkout under 5 s");
    expect(clash.text).toContain("- Checkout under 3 s");
  });
});
