import crypto from "node:crypto";
import { describe, expect, it } from "vitest";
import type { Role } from "#db/schema";
import { db } from "~/db.server";
import { addMembership } from "~/domain/orgs/orgs.server";
import { signedUpClient, type TestClient } from "../support/client";

const MB10 = 10 * 1024 * 1024;

async function workspace() {
  const owner = await signedUpClient({ name: "Olive Owner" });
  await db.updateTable("organizations").set({ plan: "pro" }).where("id", "=", owner.organization.id).execute();
  const project = await owner.client.post("/api/projects", { name: "Files project" });
  expect(project.status).toBe(201);
  return { ...owner, projectId: project.body.id as string };
}

/** A second user of the same organization with the given role. */
async function joinOrg(orgId: string, role: Role, name = "Second Person") {
  const other = await signedUpClient({ name });
  await addMembership(db, orgId, other.user.id, role);
  await db.updateTable("sessions").set({ orgId }).where("userId", "=", other.user.id).execute();
  return other;
}

function form(parts: { file?: { bytes: Uint8Array | string; name: string; type?: string }; fields?: Record<string, string> }) {
  const fd = new FormData();
  if (parts.file) {
    const { bytes, name, type } = parts.file;
    fd.append("file", new File([bytes as BlobPart], name, type !== undefined ? { type } : {}));
  }
  for (const [k, v] of Object.entries(parts.fields ?? {})) fd.append(k, v);
  return fd;
}

function upload(client: TestClient, projectId: string, file: { bytes: Uint8Array | string; name: string; type?: string }, fields?: Record<string, string>) {
  return client.call("POST", `/api/projects/${projectId}/files`, { body: form({ file, fields }) });
}

/** Raw bytes of a download (TestClient reads bodies as text). */
async function downloadBytes(client: TestClient, path: string) {
  const { remixHandler } = await import("../support/build");
  const headers = new Headers({ Cookie: [...client.jar].map(([k, v]) => `${k}=${v}`).join("; ") });
  const res = await remixHandler()(new Request(`http://localhost:3000${path}`, { headers }), { ip: client.ip });
  return { status: res.status, headers: res.headers, bytes: new Uint8Array(await res.arrayBuffer()) };
}

const count = async (table: "projectFiles" | "blobs" | "projectFolders") =>
  Number(
    (
      await db
        .selectFrom(table)
        .select((eb) => eb.fn.countAll<number>().as("n"))
        .executeTakeFirstOrThrow()
    ).n,
  );

describe("project files", () => {
  it("uploads, lists and downloads binary bytes exactly, with safe headers", async () => {
    const { client, user, projectId } = await workspace();
    const bytes = new Uint8Array(70_000);
    for (let i = 0; i < bytes.length; i++) bytes[i] = i % 256;
    bytes.set(crypto.randomBytes(1000), 5000);
    const res = await upload(client, projectId, { bytes, name: "diagram.png", type: "image/png" });
    expect(res.status).toBe(201);
    expect(res.headers.get("API-Version")).toBe("1");
    const file = res.body.file;
    expect(file).toMatchObject({
      filename: "diagram.png",
      contentType: "image/png",
      size: bytes.length,
      folderId: null,
      uploadedBy: { id: user.id, name: "Olive Owner" },
      downloadUrl: `/api/projects/${projectId}/files/${file.id}`,
    });
    expect(typeof file.createdAt).toBe("string");
    expect(res.headers.get("Location")).toBe(file.downloadUrl);

    const stored = await db.selectFrom("blobs").selectAll().executeTakeFirstOrThrow();
    expect(stored.sha256).toBe(crypto.createHash("sha256").update(bytes).digest("hex"));
    expect(stored.size).toBe(bytes.length);

    const list = await client.get(`/api/projects/${projectId}/files`);
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ files: [file], folders: [] });

    const dl = await downloadBytes(client, file.downloadUrl);
    expect(dl.status).toBe(200);
    expect(Buffer.from(dl.bytes).equals(Buffer.from(bytes))).toBe(true);
    expect(dl.headers.get("Content-Type")).toBe("image/png");
    expect(dl.headers.get("Content-Length")).toBe(String(bytes.length));
    expect(dl.headers.get("Content-Disposition")).toBe(`attachment; filename="diagram.png"; filename*=UTF-8''diagram.png`);
    expect(dl.headers.get("X-Content-Type-Options")).toBe("nosniff");
    expect(dl.headers.get("API-Version")).toBe("1");

    // Conditional GET by the content hash.
    const etag = dl.headers.get("ETag")!;
    expect(etag).toBe(`"${stored.sha256}"`);
    const again = await client.get(file.downloadUrl, { headers: { "If-None-Match": etag } });
    expect(again.status).toBe(304);

    const activity = await client.get(`/api/projects/${projectId}/activity`);
    expect(activity.body.activities.map((a: { action: string }) => a.action)).toContain("file.uploaded");
  });

  it("sanitizes filenames, defaults the content type and never serves active content inline", async () => {
    const { client, projectId } = await workspace();
    const evil = await upload(client, projectId, { bytes: "<script>alert(1)</script>", name: "..\\..\\x/pa\u0000ss\u202ewd.html", type: "text/html" });
    expect(evil.status).toBe(201);
    expect(evil.body.file.filename).toBe("passwd.html");
    expect(evil.body.file.contentType).toBe("text/html");
    const dl = await client.get(evil.body.file.downloadUrl);
    expect(dl.headers.get("Content-Type")).toBe("application/octet-stream");
    expect(dl.headers.get("Content-Disposition")).toMatch(/^attachment;/);
    expect(dl.text).toBe("<script>alert(1)</script>");

    for (const type of ["image/svg+xml", "application/xhtml+xml", "text/javascript", "application/javascript"]) {
      const r = await upload(client, projectId, { bytes: `x-${type}`, name: "a", type });
      expect(r.status).toBe(201);
      const d = await client.get(r.body.file.downloadUrl);
      expect(d.headers.get("Content-Type"), type).toBe("application/octet-stream");
    }

    const noType = await upload(client, projectId, { bytes: "raw", name: "blob.bin", type: "" });
    expect(noType.body.file.contentType).toBe("application/octet-stream");

    const long = "a".repeat(300) + ".pdf";
    const l = await upload(client, projectId, { bytes: "pdf", name: long, type: "application/pdf" });
    expect(l.body.file.filename).toHaveLength(200);
    expect(l.body.file.filename.endsWith(".pdf")).toBe(true);

    const uni = await upload(client, projectId, { bytes: "cv", name: "résumé (v2) 日本.txt", type: "text/plain" });
    const u = await client.get(uni.body.file.downloadUrl);
    expect(u.headers.get("Content-Type")).toBe("text/plain");
    expect(u.headers.get("Content-Disposition")).toBe(
      `attachment; filename="r_sum_ (v2) __.txt"; filename*=UTF-8''r%C3%A9sum%C3%A9%20%28v2%29%20%E6%97%A5%E6%9C%AC.txt`,
    );
  });

  it("accepts exactly 10 MB and refuses 10 MB + 1 byte with 413 without writing anything", async () => {
    const { client, projectId } = await workspace();
    const before = { files: await count("projectFiles"), blobs: await count("blobs") };
    const activityBefore = (await client.get(`/api/projects/${projectId}/activity`)).body.total;

    const tooBig = await upload(client, projectId, { bytes: new Uint8Array(MB10 + 1), name: "big.bin" });
    expect(tooBig.status).toBe(413);
    expect(tooBig.body.code).toBe("PAYLOAD_TOO_LARGE");
    expect(await count("projectFiles")).toBe(before.files);
    expect(await count("blobs")).toBe(before.blobs);
    expect((await client.get(`/api/projects/${projectId}/activity`)).body.total).toBe(activityBefore);

    const exact = await upload(client, projectId, { bytes: new Uint8Array(MB10).fill(7), name: "exact.bin" });
    expect(exact.status).toBe(201);
    expect(exact.body.file.size).toBe(MB10);
  });

  it("refuses JSON (415) and a body without the file field (400)", async () => {
    const { client, projectId } = await workspace();
    const json = await client.post(`/api/projects/${projectId}/files`, { file: "hello" });
    expect(json.status).toBe(415);
    expect(json.body.code).toBe("UNSUPPORTED_MEDIA_TYPE");

    const noFile = await client.call("POST", `/api/projects/${projectId}/files`, { body: form({ fields: { note: "x" } }) });
    expect(noFile.status).toBe(400);
    expect(noFile.body.code).toBe("VALIDATION_ERROR");
    expect(noFile.body.details[0].path).toBe("file");

    // A file under another field name does not count.
    const fd = new FormData();
    fd.append("attachment", new File(["x"], "x.txt"));
    const wrongField = await client.call("POST", `/api/projects/${projectId}/files`, { body: fd });
    expect(wrongField.status).toBe(400);
    const mine = await client.get(`/api/projects/${projectId}/files`);
    expect(mine.body.files).toEqual([]);
  });

  it("checks folderId on upload and on listing", async () => {
    const { client, projectId } = await workspace();
    const other = await client.post("/api/projects", { name: "Other project" });
    const foreignFolder = await client.post(`/api/projects/${other.body.id}/folders`, { name: "Elsewhere" });
    expect(foreignFolder.status).toBe(201);

    const bogus = await upload(client, projectId, { bytes: "x", name: "x.txt" }, { folderId: "nope" });
    expect(bogus.status).toBe(400);
    expect(bogus.body.code).toBe("VALIDATION_ERROR");
    expect(bogus.body.details[0].path).toBe("folderId");
    const foreign = await upload(client, projectId, { bytes: "x", name: "x.txt" }, { folderId: foreignFolder.body.folder.id });
    expect(foreign.status).toBe(400);

    const folder = await client.post(`/api/projects/${projectId}/folders`, { name: "Specs" });
    const inFolder = await upload(client, projectId, { bytes: "in", name: "in.txt" }, { folderId: folder.body.folder.id });
    expect(inFolder.status).toBe(201);
    expect(inFolder.body.file.folderId).toBe(folder.body.folder.id);
    const atRoot = await upload(client, projectId, { bytes: "root", name: "root.txt" }, { folderId: "" });
    expect(atRoot.body.file.folderId).toBeNull();

    const all = await client.get(`/api/projects/${projectId}/files`);
    expect(all.body.files.map((f: { filename: string }) => f.filename)).toEqual(["in.txt", "root.txt"]);
    expect(all.body.folders).toEqual([folder.body.folder]);
    const one = await client.get(`/api/projects/${projectId}/files?folderId=${folder.body.folder.id}`);
    expect(one.body.files.map((f: { filename: string }) => f.filename)).toEqual(["in.txt"]);
    const root = await client.get(`/api/projects/${projectId}/files?folderId=root`);
    expect(root.body.files.map((f: { filename: string }) => f.filename)).toEqual(["root.txt"]);
    const unknown = await client.get(`/api/projects/${projectId}/files?folderId=${foreignFolder.body.folder.id}`);
    expect(unknown.status).toBe(400);
  });

  it("deletes a file with its blob; unknown and other-project ids are 404", async () => {
    const { client, projectId } = await workspace();
    const other = await client.post("/api/projects", { name: "Other" });
    const theirs = await upload(client, other.body.id, { bytes: "theirs", name: "t.txt" });
    const mine = await upload(client, projectId, { bytes: "mine", name: "m.txt" });
    const blobId = (await db.selectFrom("projectFiles").select("blobId").where("id", "=", mine.body.file.id).executeTakeFirstOrThrow()).blobId;

    expect((await client.delete(`/api/projects/${projectId}/files/${theirs.body.file.id}`)).status).toBe(404);
    expect((await client.get(`/api/projects/${projectId}/files/${theirs.body.file.id}`)).status).toBe(404);
    expect((await client.delete(`/api/projects/${projectId}/files/does-not-exist`)).status).toBe(404);

    const del = await client.delete(`/api/projects/${projectId}/files/${mine.body.file.id}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true });
    expect(await db.selectFrom("blobs").select("id").where("id", "=", blobId).executeTakeFirst()).toBeUndefined();
    expect((await client.get(mine.body.file.downloadUrl)).status).toBe(404);
    expect((await client.delete(`/api/projects/${projectId}/files/${mine.body.file.id}`)).status).toBe(404);
    // The other project's file is untouched.
    expect((await client.get(theirs.body.file.downloadUrl)).text).toBe("theirs");
  });

  it("stores identical bytes once per project and keeps them until the last file goes", async () => {
    const { client, projectId } = await workspace();
    const a = await upload(client, projectId, { bytes: "same bytes", name: "a.txt" });
    const b = await upload(client, projectId, { bytes: "same bytes", name: "b.txt" });
    const rows = await db.selectFrom("projectFiles").select("blobId").where("projectId", "=", projectId).execute();
    expect(new Set(rows.map((r) => r.blobId)).size).toBe(1);
    const blobId = rows[0]!.blobId;
    await client.delete(`/api/projects/${projectId}/files/${a.body.file.id}`);
    expect(await db.selectFrom("blobs").select("id").where("id", "=", blobId).executeTakeFirst()).toBeDefined();
    expect((await client.get(b.body.file.downloadUrl)).text).toBe("same bytes");
    await client.delete(`/api/projects/${projectId}/files/${b.body.file.id}`);
    expect(await db.selectFrom("blobs").select("id").where("id", "=", blobId).executeTakeFirst()).toBeUndefined();
  });

  it("deleting the project removes its files, folders and blobs", async () => {
    const { client, projectId } = await workspace();
    const folder = await client.post(`/api/projects/${projectId}/folders`, { name: "Docs" });
    await upload(client, projectId, { bytes: "one", name: "1.txt" }, { folderId: folder.body.folder.id });
    await upload(client, projectId, { bytes: "two", name: "2.txt" });
    const blobIds = (await db.selectFrom("projectFiles").select("blobId").where("projectId", "=", projectId).execute()).map((r) => r.blobId);
    expect(blobIds).toHaveLength(2);

    const del = await client.delete(`/api/projects/${projectId}`);
    expect(del.status).toBe(200);
    expect(await db.selectFrom("projectFiles").select("id").where("projectId", "=", projectId).execute()).toEqual([]);
    expect(await db.selectFrom("projectFolders").select("id").where("projectId", "=", projectId).execute()).toEqual([]);
    expect(await db.selectFrom("blobs").select("id").where("id", "in", blobIds).execute()).toEqual([]);
  });
});

describe("project folders", () => {
  it("creates, renames, moves, refuses cycles and duplicate names, deletes and moves files to the root", async () => {
    const { client, projectId } = await workspace();
    const base = `/api/projects/${projectId}/folders`;
    const specs = await client.post(base, { name: "  Specs  " });
    expect(specs.status).toBe(201);
    expect(specs.body.folder).toMatchObject({ name: "Specs", parentId: null });
    const specsId = specs.body.folder.id;
    const api = await client.post(base, { name: "API", parentId: specsId });
    expect(api.body.folder.parentId).toBe(specsId);
    const apiId = api.body.folder.id;
    const v1 = await client.post(base, { name: "v1", parentId: apiId });
    const v1Id = v1.body.folder.id;
    const design = await client.post(base, { name: "Design" });
    const designId = design.body.folder.id;

    // Validation
    expect((await client.post(base, { name: "" })).status).toBe(400);
    expect((await client.post(base, { name: "x".repeat(101) })).status).toBe(400);
    expect((await client.post(base, { name: "a/b" })).status).toBe(400);
    expect((await client.post(base, { name: "ok", parentId: "missing" })).status).toBe(400);
    const other = await client.post("/api/projects", { name: "Other" });
    const foreign = await client.post(`/api/projects/${other.body.id}/folders`, { name: "Foreign" });
    const foreignParent = await client.post(base, { name: "ok", parentId: foreign.body.folder.id });
    expect(foreignParent.status).toBe(400);
    expect(foreignParent.body.details[0].path).toBe("parentId");

    // Duplicate sibling names, ignoring case; the same name elsewhere is fine.
    const dup = await client.post(base, { name: "SPECS" });
    expect(dup.status).toBe(409);
    expect(dup.body.code).toBe("CONFLICT");
    expect((await client.post(base, { name: "Specs", parentId: designId })).status).toBe(201);
    expect((await client.patch(`${base}/${designId}`, { name: "specs" })).status).toBe(409);

    // Rename
    const renamed = await client.patch(`${base}/${designId}`, { name: "UX Design" });
    expect(renamed.status).toBe(200);
    expect(renamed.body.folder).toMatchObject({ id: designId, name: "UX Design", parentId: null });
    // Renaming a folder to a different case of its own name is allowed.
    expect((await client.patch(`${base}/${designId}`, { name: "ux design" })).body.folder.name).toBe("ux design");

    // Cycles
    const self = await client.patch(`${base}/${specsId}`, { parentId: specsId });
    expect(self.status).toBe(400);
    expect(self.body.code).toBe("VALIDATION_ERROR");
    const intoChild = await client.patch(`${base}/${specsId}`, { parentId: v1Id });
    expect(intoChild.status).toBe(400);
    expect(intoChild.body.code).toBe("VALIDATION_ERROR");
    expect((await client.patch(`${base}/${specsId}`, { parentId: foreign.body.folder.id })).status).toBe(400);
    expect((await client.patch(`${base}/${specsId}`, {})).status).toBe(400);

    // Move v1 under UX Design, then back to the root with null.
    const moved = await client.patch(`${base}/${v1Id}`, { parentId: designId });
    expect(moved.body.folder.parentId).toBe(designId);
    const toRoot = await client.patch(`${base}/${v1Id}`, { parentId: null, name: "v1 (old)" });
    expect(toRoot.body.folder).toMatchObject({ parentId: null, name: "v1 (old)" });
    await client.patch(`${base}/${v1Id}`, { parentId: apiId });

    const list = await client.get(base);
    expect(list.status).toBe(200);
    expect(list.body.folders.map((f: { name: string }) => f.name)).toEqual(["API", "Specs", "Specs", "ux design", "v1 (old)"]);

    // Unknown folder ids
    expect((await client.patch(`${base}/nope`, { name: "x" })).status).toBe(404);
    expect((await client.patch(`${base}/${foreign.body.folder.id}`, { name: "x" })).status).toBe(404);
    expect((await client.delete(`${base}/${foreign.body.folder.id}`)).status).toBe(404);

    // Delete Specs: API and v1 go too; files in all three move to the root.
    const f1 = await upload(client, projectId, { bytes: "1", name: "1.txt" }, { folderId: specsId });
    const f2 = await upload(client, projectId, { bytes: "2", name: "2.txt" }, { folderId: apiId });
    const f3 = await upload(client, projectId, { bytes: "3", name: "3.txt" }, { folderId: v1Id });
    const f4 = await upload(client, projectId, { bytes: "4", name: "4.txt" }, { folderId: designId });
    const del = await client.delete(`${base}/${specsId}`);
    expect(del.status).toBe(200);
    expect(del.body).toEqual({ success: true, movedFiles: 3 });
    const after = await client.get(`/api/projects/${projectId}/files`);
    const byId = new Map(after.body.files.map((f: { id: string; folderId: string | null }) => [f.id, f.folderId]));
    expect(byId.get(f1.body.file.id)).toBeNull();
    expect(byId.get(f2.body.file.id)).toBeNull();
    expect(byId.get(f3.body.file.id)).toBeNull();
    expect(byId.get(f4.body.file.id)).toBe(designId);
    expect(after.body.folders.map((f: { id: string }) => f.id).sort()).toEqual(
      [designId, ...after.body.folders.filter((f: { name: string }) => f.name === "Specs").map((f: { id: string }) => f.id)].sort(),
    );
    expect(after.body.folders.find((f: { id: string }) => f.id === apiId)).toBeUndefined();
    expect((await client.get(f3.body.file.downloadUrl)).text).toBe("3");
    const empty = await client.delete(`${base}/${designId}`);
    expect(empty.body).toEqual({ success: true, movedFiles: 1 });
  });
});

describe("files and folders access", () => {
  it("a member who is not the creator reads but may not change; a viewer who is no collaborator sees nothing", async () => {
    const { client, organization, projectId } = await workspace();
    const folder = await client.post(`/api/projects/${projectId}/folders`, { name: "Shared" });
    const file = await upload(client, projectId, { bytes: new Uint8Array([0, 1, 2, 255]), name: "b.bin" });
    const fileUrl = file.body.file.downloadUrl as string;
    const folderUrl = `/api/projects/${projectId}/folders/${folder.body.folder.id}`;

    const member = await joinOrg(organization.id, "member", "Mia Member");
    const m = member.client;
    expect((await m.get(`/api/projects/${projectId}/files`)).body.files).toHaveLength(1);
    expect((await m.get(`/api/projects/${projectId}/folders`)).body.folders).toHaveLength(1);
    const dl = await downloadBytes(m, fileUrl);
    expect(dl.status).toBe(200);
    expect([...dl.bytes]).toEqual([0, 1, 2, 255]);
    for (const res of [
      await upload(m, projectId, { bytes: "x", name: "x.txt" }),
      await m.delete(fileUrl),
      await m.post(`/api/projects/${projectId}/folders`, { name: "Mine" }),
      await m.patch(folderUrl, { name: "Renamed" }),
      await m.delete(folderUrl),
    ]) {
      expect(res.status).toBe(403);
      expect(res.body.code).toBe("FORBIDDEN");
    }
    // A refused upload of more than the limit is refused before the body is read.
    const big = await upload(m, projectId, { bytes: new Uint8Array(MB10 + 1), name: "big.bin" });
    expect(big.status).toBe(403);

    // Assigned to the project, the member may edit.
    await db.updateTable("projects").set({ assignedToId: member.user.id }).where("id", "=", projectId).execute();
    const ok = await upload(m, projectId, { bytes: "by member", name: "m.txt" });
    expect(ok.status).toBe(201);
    expect(ok.body.file.uploadedBy).toEqual({ id: member.user.id, name: "Mia Member" });

    const viewer = await joinOrg(organization.id, "viewer", "Vic Viewer");
    for (const res of [
      await viewer.client.get(`/api/projects/${projectId}/files`),
      await viewer.client.get(fileUrl),
      await viewer.client.get(`/api/projects/${projectId}/folders`),
      await upload(viewer.client, projectId, { bytes: "x", name: "x.txt" }),
      await viewer.client.delete(fileUrl),
      await viewer.client.post(`/api/projects/${projectId}/folders`, { name: "V" }),
      await viewer.client.patch(folderUrl, { name: "V" }),
      await viewer.client.delete(folderUrl),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("NOT_FOUND");
    }
  });

  it("another organization gets 404 everywhere; no credentials get 401", async () => {
    const { client, projectId } = await workspace();
    const folder = await client.post(`/api/projects/${projectId}/folders`, { name: "Private" });
    const file = await upload(client, projectId, { bytes: "secret", name: "s.txt" });
    const fileUrl = file.body.file.downloadUrl as string;
    const folderUrl = `/api/projects/${projectId}/folders/${folder.body.folder.id}`;

    const stranger = await signedUpClient({ name: "Stan Stranger" });
    const s = stranger.client;
    for (const res of [
      await s.get(`/api/projects/${projectId}/files`),
      await s.get(fileUrl),
      await s.get(`/api/projects/${projectId}/folders`),
      await upload(s, projectId, { bytes: "x", name: "x.txt" }),
      await s.delete(fileUrl),
      await s.post(`/api/projects/${projectId}/folders`, { name: "X" }),
      await s.patch(folderUrl, { name: "X" }),
      await s.delete(folderUrl),
    ]) {
      expect(res.status).toBe(404);
      expect(res.body.code).toBe("NOT_FOUND");
    }
    // Their own project cannot reach our file or folder by id either.
    await db.updateTable("organizations").set({ plan: "pro" }).where("id", "=", stranger.organization.id).execute();
    const theirs = await s.post("/api/projects", { name: "Theirs" });
    expect(theirs.status).toBe(201);
    expect((await s.get(`/api/projects/${theirs.body.id}/files/${file.body.file.id}`)).status).toBe(404);
    expect((await s.patch(`/api/projects/${theirs.body.id}/folders/${folder.body.folder.id}`, { name: "X" })).status).toBe(404);
    const sneaky = await upload(s, theirs.body.id, { bytes: "x", name: "x.txt" }, { folderId: folder.body.folder.id });
    expect(sneaky.status).toBe(400);

    expect((await client.get(fileUrl, { cookies: false })).status).toBe(401);
    expect((await client.get(`/api/projects/${projectId}/files`, { cookies: false })).status).toBe(401);
    // Unchanged by all of the above.
    expect((await client.get(fileUrl)).text).toBe("secret");
  });

  it("documents the endpoints in the OpenAPI document", async () => {
    const { client } = await workspace();
    const doc = await client.get("/api/openapi.json");
    const paths = doc.body.paths;
    expect(Object.keys(paths["/api/projects/{projectId}/files"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(paths["/api/projects/{projectId}/files/{fileId}"]).sort()).toEqual(["delete", "get"]);
    expect(Object.keys(paths["/api/projects/{projectId}/folders"]).sort()).toEqual(["get", "post"]);
    expect(Object.keys(paths["/api/projects/{projectId}/folders/{folderId}"]).sort()).toEqual(["delete", "patch"]);
    const upload = paths["/api/projects/{projectId}/files"].post;
    expect(upload.requestBody.content["multipart/form-data"].schema.properties.file).toMatchObject({ type: "string", format: "binary" });
    expect(upload.responses["413"]).toBeDefined();
    expect(upload.responses["415"]).toBeDefined();
  });
});
