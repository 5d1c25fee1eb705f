process.env.SUPERADMIN_EMAILS = "exports-root@example.com";
import { unzipSync } from "fflate";
import { afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { db } from "~/db.server";
import { signedUpClient } from "../support/client";
import { type Account, expectError, joinOrg, signedUpSuperadmin } from "../support/org";
import { eventsNamed, newProjectWithPrd, pdfText, rawPost } from "./exports-support";

// Renderers work as written; a test can make the next one throw.
const failing = vi.hoisted(() => ({ next: false }));
vi.mock("~/domain/exports/files.server", async (importOriginal) => {
  const real = await importOriginal<typeof import("~/domain/exports/files.server")>();
  return {
    ...real,
    renderExport: async (...args: Parameters<typeof real.renderExport>) => {
      if (failing.next) {
        failing.next = false;
        throw new Error("renderer exploded");
      }
      return real.renderExport(...args);
    },
  };
});

const PRD = "## Problem\n\nCheckout takes too long for returning customers.\n\n## Goals\n\n- Cut checkout time by 40%\n";
const HOSTILE = "# Notes\n\n<script>alert('x')</script>\n\n<img src=x onerror=alert(1)>\n\nSafe paragraph here.";

let owner: Account, member: Account, viewer: Account, outsider: Account;
let projectId: string, outsiderProject: string;

beforeAll(async () => {
  owner = await signedUpClient({ name: "Olivia Owner" });
  member = await joinOrg(owner.organization.id, "member", "Mia Member");
  viewer = await joinOrg(owner.organization.id, "viewer", "Vic Viewer");
  outsider = await signedUpClient({ name: "Oscar Outsider" });
  projectId = await newProjectWithPrd(owner, "Checkout Revamp", PRD);
  outsiderProject = await newProjectWithPrd(outsider, "Secret Plan", "# Secret\n\nDo not leak.");
});

afterEach(() => {
  failing.next = false;
});

describe("POST /api/export/html", () => {
  it("exports a project as a self-contained attachment with no script", async () => {
    const res = await rawPost(member.client, "/api/export/html", { projectId });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("Content-Type")).toMatch(/^text\/html/);
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="Checkout-Revamp\.html"/);
    expect(Number(res.headers.get("Content-Length"))).toBe(res.bytes.byteLength);
    expect(res.text).toContain("Checkout Revamp");
    expect(res.text).toContain("Checkout takes too long for returning customers.");
    expect(res.text).not.toMatch(/<script/i);
    // Self-contained: no external stylesheet or script.
    expect(res.text).not.toMatch(/<link[^>]+stylesheet/i);
  });

  it("exports content with a title; markup in the content is neutralised", async () => {
    const res = await rawPost(owner.client, "/api/export/html", { content: HOSTILE, title: "Launch Notes / Q3" });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("Content-Disposition")).toMatch(/filename="Launch-Notes-Q3\.html"/);
    expect(res.text).toContain("Launch Notes / Q3");
    expect(res.text).toContain("Safe paragraph here.");
    expect(res.text).not.toMatch(/<script/i);
    expect(res.text).not.toMatch(/onerror/i);
  });

  it("a title overrides the project's name", async () => {
    const res = await rawPost(owner.client, "/api/export/html", { projectId, title: "Board Copy" });
    expect(res.status).toBe(200);
    expect(res.headers.get("Content-Disposition")).toMatch(/filename="Board-Copy\.html"/);
  });
});

describe("validation and access", () => {
  it("neither projectId nor content → 400; a wrong type → 400 (both together: exports-body-forms.test.ts)", async () => {
    for (const format of ["pdf", "html", "docx"]) {
      const res = await owner.client.post(`/api/export/${format}`, { title: "Only a title" });
      expectError(res, 400, "VALIDATION_ERROR");
      expect(res.body.details[0].path).toBe("projectId");
    }
    expectError(await owner.client.post("/api/export/html", { content: 42 }), 400, "VALIDATION_ERROR");
  });

  it("another organization's project and a viewer without access → 404; signed out → 401", async () => {
    for (const format of ["pdf", "html", "docx"]) {
      expectError(await owner.client.post(`/api/export/${format}`, { projectId: outsiderProject }), 404, "NOT_FOUND");
      expectError(await viewer.client.post(`/api/export/${format}`, { projectId }), 404, "NOT_FOUND");
    }
    expectError(await owner.client.post("/api/export/html", { projectId: "no-such-project" }), 404, "NOT_FOUND");
    expectError(await owner.client.post("/api/export/html", { projectId }, { cookies: false }), 401, "UNAUTHORIZED");
  });

  it("a viewer who collaborates on the project may export it", async () => {
    const added = await owner.client.post(`/api/projects/${projectId}/collaborators`, { email: viewer.email, role: "viewer" });
    expect(added.status, added.text).toBeLessThan(300);
    const res = await rawPost(viewer.client, "/api/export/html", { projectId });
    expect(res.status, res.text).toBe(200);
    expect((await owner.client.delete(`/api/projects/${projectId}/collaborators/${added.body.collaborator.id}`)).status).toBe(200);
    expectError(await viewer.client.post("/api/export/html", { projectId }), 404, "NOT_FOUND");
  });
});

describe("feature flags", () => {
  it("export_pdf / export_docx off for the caller → 403 FEATURE_DISABLED; HTML has no flag; other organizations unaffected", async () => {
    const root = await signedUpSuperadmin({ email: "exports-root@example.com" });
    for (const key of ["export_pdf", "export_docx"]) {
      const set = await root.client.post("/api/feature-flags", { key, enabled: true, rules: { denyOrgIds: [owner.organization.id] } });
      expect(set.status, set.text).toBeLessThan(300);
    }
    try {
      for (const format of ["pdf", "docx"]) {
        const res = await owner.client.post(`/api/export/${format}`, { projectId });
        expectError(res, 403, "FEATURE_DISABLED");
        expect(res.body.flag).toBe(`export_${format}`);
        expectError(await owner.client.post(`/api/export/${format}`, { content: "# Hi" }), 403, "FEATURE_DISABLED");
        expect((await outsider.client.post(`/api/export/${format}`, { content: "# Hi" })).status).not.toBe(403);
      }
      expect((await rawPost(owner.client, "/api/export/html", { projectId })).status).toBe(200);
    } finally {
      for (const key of ["export_pdf", "export_docx"]) await root.client.delete(`/api/feature-flags/${key}`);
    }
  });
});

describe("PDF and DOCX", () => {
  it("PDF from a project: %PDF- header, the PRD's text inside, attachment", async () => {
    const res = await rawPost(owner.client, "/api/export/pdf", { projectId });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("Content-Type")).toBe("application/pdf");
    expect(res.headers.get("Content-Disposition")).toMatch(/^attachment; filename="Checkout-Revamp\.pdf"/);
    expect(Buffer.from(res.bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    const text = pdfText(res.bytes).replace(/\s+/g, " ");
    expect(text).toContain("Checkout Revamp");
    expect(text).toContain("Checkout takes too long for returning customers.");
  });

  it("PDF from content", async () => {
    const res = await rawPost(owner.client, "/api/export/pdf", { content: "## Scope\n\nOnly the mobile app.", title: "Mobile Scope" });
    expect(res.status, res.text).toBe(200);
    expect(Buffer.from(res.bytes.subarray(0, 5)).toString("latin1")).toBe("%PDF-");
    expect(pdfText(res.bytes).replace(/\s+/g, " ")).toContain("Only the mobile app.");
  });

  it("DOCX from a project and from content: a Word document with the text in word/document.xml", async () => {
    for (const body of [{ projectId }, { content: PRD, title: "Checkout Revamp" }]) {
      const res = await rawPost(owner.client, "/api/export/docx", body);
      expect(res.status, res.text).toBe(200);
      expect(res.headers.get("Content-Type")).toBe("application/vnd.openxmlformats-officedocument.wordprocessingml.document");
      expect(res.headers.get("Content-Disposition")).toMatch(/filename="Checkout-Revamp\.docx"/);
      const files = unzipSync(res.bytes);
      expect(Object.keys(files)).toContain("word/document.xml");
      const xml = Buffer.from(files["word/document.xml"]!)
        .toString("utf8")
        .replace(/<[^>]+>/g, "");
      expect(xml).toContain("Checkout takes too long for returning customers.");
    }
  });
});

describe("events", () => {
  it("export.completed with projectId, format and bytes; an audit entry for project exports", async () => {
    const before = (await eventsNamed(owner.organization.id, "export.completed")).length;
    const res = await rawPost(owner.client, "/api/export/html", { projectId });
    expect(res.status).toBe(200);
    const events = await eventsNamed(owner.organization.id, "export.completed");
    expect(events.length).toBe(before + 1);
    expect(events.at(-1)!.data).toMatchObject({ projectId, format: "html", bytes: res.bytes.byteLength });
    expect(events.at(-1)!.actorId).toBe(owner.user.id);
    const audit = await db.selectFrom("auditLogs").selectAll().where("action", "=", "project.exported").where("targetId", "=", projectId).execute();
    expect(audit.length).toBeGreaterThan(0);
    expect(JSON.parse(audit.at(-1)!.metadata)).toMatchObject({ format: "html" });
  });

  it("a renderer failure → 500 envelope without internals, and export.failed", async () => {
    failing.next = true;
    const res = await owner.client.post("/api/export/html", { projectId });
    expectError(res, 500, "INTERNAL_ERROR");
    expect(res.body.error).not.toContain("exploded");
    const failed = await eventsNamed(owner.organization.id, "export.failed");
    expect(failed.at(-1)!.data).toMatchObject({ projectId, format: "html", error: "renderer exploded" });
  });
});
