import { unzipSync } from "fflate";
import { beforeAll, describe, expect, it } from "vitest";
import { signedUpClient } from "../support/client";
import { type Account, expectError } from "../support/org";
import { newProjectWithPrd, pdfText, rawPost } from "./exports-support";

/**
 * POST /api/export/pdf|html|docx in every form the spec documents: "projectId
 * string or content string (one of the two required), title string optional"
 * — and the three together, as the OpenAPI document once required.
 */

const PRD = "## Goals\n\nSaved text of the project.\n";
const DRAFT = "## Goals\n\nUnsaved draft text.\n";

let owner: Account;
let outsider: Account;
let projectId: string;
let outsiderProject: string;

beforeAll(async () => {
  owner = await signedUpClient({ name: "Fiona Forms" });
  outsider = await signedUpClient({ name: "Oscar Outsider" });
  projectId = await newProjectWithPrd(owner, "Atlas Forms", PRD);
  outsiderProject = await newProjectWithPrd(outsider, "Secret Forms", "# Secret\n\nDo not leak.");
});

/** The text of an exported file, whatever its format. */
function textOf(format: string, bytes: Uint8Array) {
  if (format === "pdf") return pdfText(bytes).replace(/\s+/g, " ");
  if (format === "docx") return Buffer.from(unzipSync(bytes)["word/document.xml"]!).toString("utf8");
  return Buffer.from(bytes).toString("utf8");
}

describe.each(["pdf", "html", "docx"])("POST /api/export/%s", (format) => {
  it("projectId alone: the saved PRD, titled and named after the project", async () => {
    const res = await rawPost(owner.client, `/api/export/${format}`, { projectId });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("Content-Disposition")).toContain(`filename="Atlas-Forms.${format}"`);
    expect(textOf(format, res.bytes)).toContain("Saved text of the project.");
  });

  it("content alone, and content with a title", async () => {
    const bare = await rawPost(owner.client, `/api/export/${format}`, { content: DRAFT });
    expect(bare.status, bare.text).toBe(200);
    expect(bare.headers.get("Content-Disposition")).toContain(`filename="Untitled-PRD.${format}"`);
    expect(textOf(format, bare.bytes)).toContain("Unsaved draft text.");
    const titled = await rawPost(owner.client, `/api/export/${format}`, { content: DRAFT, title: "Board Copy" });
    expect(titled.status, titled.text).toBe(200);
    expect(titled.headers.get("Content-Disposition")).toContain(`filename="Board-Copy.${format}"`);
  });

  it("projectId, content and title together: the content as that project's text, under the title", async () => {
    const res = await rawPost(owner.client, `/api/export/${format}`, { projectId, content: DRAFT, title: "Atlas Draft" });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("Content-Disposition")).toContain(`filename="Atlas-Draft.${format}"`);
    const text = textOf(format, res.bytes);
    expect(text).toContain("Unsaved draft text.");
    expect(text).not.toContain("Saved text of the project.");
    // Without a title: the project's name.
    const untitled = await rawPost(owner.client, `/api/export/${format}`, { projectId, content: DRAFT });
    expect(untitled.headers.get("Content-Disposition")).toContain(`filename="Atlas-Forms.${format}"`);
    // The project is still checked: another organization's is 404 even with content.
    expectError(await owner.client.post(`/api/export/${format}`, { projectId: outsiderProject, content: DRAFT }), 404, "NOT_FOUND");
  });
});

describe("the OpenAPI document", () => {
  it("marks no field required on its own and says one of projectId or content is", async () => {
    const doc = (await owner.client.get("/api/openapi.json")).body;
    for (const format of ["pdf", "html", "docx"]) {
      const schema = doc.paths[`/api/export/${format}`].post.requestBody.content["application/json"].schema;
      expect(schema.required ?? []).toEqual([]);
      expect(Object.keys(schema.properties).sort()).toEqual(["content", "projectId", "title"]);
      expect(schema.anyOf).toEqual([{ required: ["projectId"] }, { required: ["content"] }]);
    }
  });
});
