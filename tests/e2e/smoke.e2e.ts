import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, expect, inject, it } from "vitest";

/**
 * The production smoke (`npm run test:smoke`, what CI runs on Node 20 in
 * place of every browser journey): the built server global-setup started
 * answers a person's first minutes over HTTP, as the pages and the API do:
 * sign up, create a project, answer the builder, generate the PRD offline
 * and export it as a PDF whose text is the PRD's.
 */

const base = inject("baseUrl");

class Client {
  cookie = "";
  constructor(readonly ip: string) {}
  async call(method: string, pathname: string, body?: unknown) {
    const res = await fetch(`${base}${pathname}`, {
      method,
      headers: {
        "Content-Type": "application/json",
        Origin: base,
        "X-Forwarded-For": this.ip,
        ...(this.cookie ? { Cookie: this.cookie } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = res.headers.getSetCookie()[0];
    if (set) this.cookie = set.split(";")[0]!;
    return res;
  }
}

describe("production smoke", () => {
  it("signs up, creates a project, generates its PRD offline and exports it as a PDF", async () => {
    const pm = new Client("10.99.0.1");
    const email = `smoke-${Date.now()}@example.com`;
    const signUp = await pm.call("POST", "/api/auth/register", { name: "Sam Smoke", email, password: "Smoke-Test-Pass-1" });
    expect(signUp.status, await signUp.clone().text()).toBe(201);

    const created = await pm.call("POST", "/api/projects", {
      name: "Clinic booking reminders",
      description: "Text patients a reminder the day before their appointment so fewer of them miss it.",
    });
    expect(created.status).toBe(201);
    const createdBody = await created.json();
    const project = createdBody.project ?? createdBody;
    expect(project.id).toEqual(expect.any(String));

    for (const message of [
      "Receptionists at small clinics spend an hour a day phoning patients; about 12% of appointments are missed.",
      "Patients get an SMS 24 hours before with a link to confirm or cancel; cancelled slots go back on the calendar.",
      "Success: missed appointments fall from 12% to 6% within three months of launch.",
    ]) {
      const answered = await pm.call("POST", `/api/projects/${project.id}/chat`, { message });
      expect(answered.status, await answered.clone().text()).toBe(200);
    }

    const generated = await pm.call("POST", "/api/generate-prd", { projectId: project.id, style: "comprehensive" });
    expect(generated.status, await generated.clone().text()).toBe(200);
    const prd = await pm.call("GET", `/api/projects/${project.id}/prd`);
    const content: string = (await prd.json()).prd?.content ?? "";
    expect(content).toContain("12%");
    expect(content.length).toBeGreaterThan(500);

    const pdf = await pm.call("POST", "/api/export/pdf", { projectId: project.id });
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("content-type")).toContain("application/pdf");
    const bytes = Buffer.from(await pdf.arrayBuffer());
    expect(bytes.subarray(0, 5).toString()).toBe("%PDF-");
    // The PDF's text is the PRD's (pdftotext, from poppler-utils, which .ci/run installs).
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "prd-smoke-")), "prd.pdf");
    fs.writeFileSync(file, bytes);
    const text = execFileSync("pdftotext", [file, "-"], { encoding: "utf8" });
    expect(text).toContain("Clinic booking reminders");
    expect(text).toContain("12%");
    fs.rmSync(path.dirname(file), { recursive: true, force: true });
  });
});
