import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { elfBytes, makeDocx } from "../fixtures/documents";
import { ORIGIN, signedUpClient, type TestClient } from "../support/client";
import { type Account, joinOrg, setPlan } from "../support/org";
import { pageText } from "../support/page";

/**
 * "Start a project from a document" on /projects/new, driven like a browser
 * without JavaScript: a multipart form post, then the redirect.
 */

const text = pageText;

function postDocument(client: TestClient, file: { bytes: Uint8Array | string; name: string; type?: string }) {
  const fd = new FormData();
  fd.append("intent", "from-document");
  fd.append("file", new File([file.bytes as BlobPart], file.name, file.type ? { type: file.type } : {}));
  return client.call("POST", "/projects/new", { body: fd, headers: { Host: new URL(ORIGIN).host } });
}

let owner: Account;
beforeAll(async () => {
  owner = await signedUpClient({ name: "Dora Document" });
  await setPlan(owner.organization.id, "pro");
});

describe("/projects/new: start a project from a document", () => {
  it("shows the upload form with a labelled file input that works without JavaScript", async () => {
    const page = await owner.client.get("/projects/new");
    expect(page.status).toBe(200);
    expect(text(page)).toContain("Start a project from a document");
    expect(page.text).toMatch(/<form[^>]*method="post"[^>]*enctype="multipart\/form-data"/i);
    expect(page.text).toMatch(/<label for="field-document">Document<\/label>/);
    expect(page.text).toMatch(/<input[^>]*id="field-document"[^>]*name="file"[^>]*type="file"/);
    expect(page.text).toMatch(/<input type="hidden" name="intent" value="from-document"/);
  });

  it("creates the project from a DOCX: title as name, summary as description, text as PRD, original as file", async () => {
    const docx = await makeDocx(
      "<h1>Team Calendar</h1><p>Managers must see who is away next week.</p><h2>Scope</h2><p>Only EU offices will be covered at launch.</p>",
    );
    const res = await postDocument(owner.client, { bytes: docx, name: "calendar-brief.docx" });
    expect(res.status, res.text.slice(0, 400)).toBe(302);
    const location = res.headers.get("Location")!;
    const projectId = /^\/projects\/([\w-]+)$/.exec(location)?.[1];
    expect(projectId).toBeTruthy();

    const project = await owner.client.get(`/api/projects/${projectId}`);
    expect(project.body).toMatchObject({ name: "Team Calendar", description: expect.stringContaining("Managers must see who is away") });
    const prd = await owner.client.get(`/api/projects/${projectId}/prd`);
    expect(prd.status, prd.text).toBe(200);
    const content = JSON.stringify(prd.body);
    expect(content).toContain("# Team Calendar");
    expect(content).toContain("Only EU offices will be covered at launch.");
    const files = await owner.client.get(`/api/projects/${projectId}/files`);
    expect(files.body.files.map((f: { filename: string }) => f.filename)).toEqual(["calendar-brief.docx"]);
    expect((await owner.client.get(location)).status).toBe(200);
  });

  it("shows 415 and 413 errors in the form and creates nothing", async () => {
    const count = async () =>
      Number(
        (
          await db
            .selectFrom("projects")
            .select((eb) => eb.fn.countAll<number>().as("n"))
            .where("orgId", "=", owner.organization.id)
            .executeTakeFirstOrThrow()
        ).n,
      );
    const before = await count();
    const bad = await postDocument(owner.client, { bytes: elfBytes(), name: "notes.txt" });
    expect(bad.status).toBe(415);
    expect(text(bad)).toContain("an executable");
    expect(text(bad)).toContain("Start a project from a document");
    const big = await postDocument(owner.client, { bytes: Buffer.alloc(10 * 1024 * 1024 + 10, 0x61), name: "big.txt" });
    expect(big.status).toBe(413);
    expect(text(big)).toContain("larger than 10 MB");
    expect(await count()).toBe(before);
  });

  it("refuses viewers and cross-site posts", async () => {
    const viewer = await joinOrg(owner.organization.id, "viewer", "Vic Viewer");
    const res = await postDocument(viewer.client, { bytes: "A plain note. Nothing more.", name: "a.txt" });
    expect(res.status).toBe(403);
    const fd = new FormData();
    fd.append("file", new File(["Hello there. Fine."], "a.txt"));
    const cross = await owner.client.call("POST", "/projects/new", { body: fd, headers: { Host: new URL(ORIGIN).host, "Sec-Fetch-Site": "cross-site" } });
    expect(cross.status).toBe(403);
    expect(text(cross)).toContain("Cross-site request refused");
  });
});
