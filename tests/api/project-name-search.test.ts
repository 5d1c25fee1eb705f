import { beforeAll, describe, expect, it } from "vitest";
import { signedUpClient } from "../support/client";
import { type Account, setPlan } from "../support/org";

/** GET /api/projects?search= : a case-insensitive substring of the name, served by the trigram index of names. */

let a: Account;
let b: Account;
const names = (res: { body: { projects: { name: string }[] } }) => res.body.projects.map((p) => p.name).sort();

beforeAll(async () => {
  a = await signedUpClient({ name: "Name Searcher" });
  b = await signedUpClient({ name: "Other Org" });
  await setPlan(a.organization.id, "pro");
  for (const name of ["Checkout v2", "One-tap CHECKOUT", "Billing 100% coverage", "snake_case export", "Search", "Go"]) {
    expect((await a.client.post("/api/projects", { name })).status).toBe(201);
  }
  await b.client.post("/api/projects", { name: "Checkout elsewhere" });
});

describe("project name search", () => {
  it("finds substrings of three or more characters, ignoring case, with the total", async () => {
    const res = await a.client.get("/api/projects?search=checkout");
    expect(names(res)).toEqual(["Checkout v2", "One-tap CHECKOUT"]);
    expect(res.body.total).toBe(2);
    expect(names(await a.client.get("/api/projects?search=KOU"))).toEqual(["Checkout v2", "One-tap CHECKOUT"]);
    expect(names(await a.client.get("/api/projects?search=tap%20che"))).toEqual(["One-tap CHECKOUT"]);
  });

  it("handles short terms and LIKE wildcards as plain text", async () => {
    expect(names(await a.client.get("/api/projects?search=go"))).toEqual(["Go"]);
    expect(names(await a.client.get("/api/projects?search=100%25"))).toEqual(["Billing 100% coverage"]);
    expect(names(await a.client.get("/api/projects?search=e_c"))).toEqual(["snake_case export"]);
    expect((await a.client.get("/api/projects?search=%25%25%25")).body.total).toBe(0);
  });

  it("follows renames and deletes, and never shows another organization's projects", async () => {
    const list = await a.client.get("/api/projects?search=search");
    const id = list.body.projects[0].id;
    await a.client.patch(`/api/projects/${id}`, { name: "Discovery" });
    expect((await a.client.get("/api/projects?search=search")).body.total).toBe(0);
    expect(names(await a.client.get("/api/projects?search=cover"))).toEqual(["Billing 100% coverage", "Discovery"]);
    await a.client.delete(`/api/projects/${id}`);
    expect(names(await a.client.get("/api/projects?search=cover"))).toEqual(["Billing 100% coverage"]);
    expect(names(await b.client.get("/api/projects?search=checkout"))).toEqual(["Checkout elsewhere"]);
  });
});
