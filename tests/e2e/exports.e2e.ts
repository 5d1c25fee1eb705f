import { unzipSync } from "fflate";
import { describe, expect, inject, it } from "vitest";

/**
 * Exports from the production build (`node build/server.js`): the renderers
 * run in the bundled worker thread (build/render-worker.js), which only this
 * suite exercises; the API tests run them from source.
 */

const baseURL = inject("baseUrl");

async function owner() {
  const email = `exports-${Date.now()}@example.com`;
  const res = await fetch(`${baseURL}/api/auth/register`, {
    method: "POST",
    headers: { "Content-Type": "application/json", Origin: baseURL, "X-Forwarded-For": "10.44.0.1" },
    body: JSON.stringify({ name: "Ada Exporter", email, password: "Export-Journey-2026" }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const cookie = res.headers.getSetCookie()[0]!.split(";")[0]!;
  return { "Content-Type": "application/json", Origin: baseURL, cookie };
}

describe("exports from the production build", () => {
  it("renders a PRD as PDF, Word and HTML in the render worker, and several as a zip", async () => {
    const headers = await owner();
    const project = await (await fetch(`${baseURL}/api/projects`, { method: "POST", headers, body: JSON.stringify({ name: "Offline field notes" }) })).json();
    const prd =
      "# Offline field notes\n\n## Requirements\n\n- The app must save every note on the device while offline.\n\n| Need | Priority |\n|---|---|\n| Sync | high |\n";
    expect((await fetch(`${baseURL}/api/projects/${project.id}/prd`, { method: "POST", headers, body: JSON.stringify({ content: prd }) })).status).toBeLessThan(
      300,
    );

    const exported = async (format: string) => {
      const res = await fetch(`${baseURL}/api/export/${format}`, { method: "POST", headers, body: JSON.stringify({ projectId: project.id }) });
      expect(res.status, format).toBe(200);
      return Buffer.from(await res.arrayBuffer());
    };
    const pdf = await exported("pdf");
    expect(pdf.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf.length).toBeGreaterThan(2000);
    const docx = unzipSync(await exported("docx"));
    expect(Buffer.from(docx["word/document.xml"]!).toString("utf8")).toContain("save every note on the device while offline");
    const html = (await exported("html")).toString("utf8");
    expect(html).toContain("<h1");
    expect(html).toContain("save every note on the device while offline");

    const bulk = await fetch(`${baseURL}/api/export/bulk`, { method: "POST", headers, body: JSON.stringify({ projectIds: [project.id], format: "all" }) });
    expect(bulk.status).toBe(200);
    const files = unzipSync(new Uint8Array(await bulk.arrayBuffer()));
    expect(Object.keys(files).sort()).toEqual([
      "Offline-field-notes/Offline-field-notes.html",
      "Offline-field-notes/Offline-field-notes.md",
      "Offline-field-notes/Offline-field-notes.pdf",
      "README.txt",
    ]);
  });
});
