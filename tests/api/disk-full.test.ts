import { afterEach, describe, expect, it, vi } from "vitest";
import { createRequestHandler, type ServerBuild } from "@remix-run/node";
import { sqlite } from "~/db.server";
import { withStorageFullPages } from "~/ops/storage-errors.server";
import { type ApiResult, ORIGIN, signedUpClient, type TestClient } from "../support/client";
import { fillTheDisk, freeTheDisk } from "../support/disk";
import { assembledBuild } from "../support/build";
import { expectError, setPlan } from "../support/org";
import { pageText } from "../support/page";

/**
 * A full disk: SQLite answers SQLITE_FULL when the database cannot
 * grow. `PRAGMA max_page_count` at the current size makes it so without
 * filling the real disk. Writes answer 503 STORAGE_FULL, leave nothing
 * half-saved and no damage, and work again once there is room.
 */

const FULL = "The server's disk is full; nothing was saved. Try again later.";
const FORM_HEADERS = { "Content-Type": "application/x-www-form-urlencoded", Host: new URL(ORIGIN).host };

const count = (sql: string, ...params: unknown[]) =>
  (
    sqlite()
      .prepare(sql)
      .get(...params) as { n: number }
  ).n;
const integrity = () => sqlite().pragma("integrity_check", { simple: true });

/** Creates projects with long descriptions until one is refused; returns the refused request. */
async function createUntilRefused(client: TestClient, prefix: string) {
  const description = "Long enough to need new pages. ".repeat(160).slice(0, 5000);
  for (let i = 0; i < 500; i++) {
    const body = { name: `${prefix} ${i}`, description: `${i} ${description}` };
    const res = await client.post("/api/projects", body);
    if (res.status !== 201) return { res, body };
  }
  throw new Error("the database never filled up");
}

afterEach(() => freeTheDisk());

describe("full disk", () => {
  it("answers 503 STORAGE_FULL with Retry-After, saves nothing, corrupts nothing and recovers when space returns", async () => {
    const errorLog = vi.mocked(console.error).mockImplementation(() => {});
    const owner = await signedUpClient();
    await setPlan(owner.organization.id, "enterprise");
    const before = count("SELECT count(*) AS n FROM projects");
    fillTheDisk();

    const { res, body } = await createUntilRefused(owner.client, "Full disk plan");
    expectError(res, 503, "STORAGE_FULL");
    expect(res.body.error).toBe(FULL);
    expect(res.headers.get("Retry-After")).toBe("60");
    expect(errorLog.mock.calls.some((c) => String(c[0]).includes("disk full"))).toBe(true);

    // The refused project left no row behind, and the file is intact.
    expect(count("SELECT count(*) AS n FROM projects WHERE name = ?", body.name)).toBe(0);
    expect(integrity()).toBe("ok");
    // Reads still work while the disk is full.
    const list = await owner.client.get("/api/projects?limit=200");
    expect(list.status).toBe(200);
    const acknowledged = count("SELECT count(*) AS n FROM projects") - before;
    expect(list.body.total).toBe(acknowledged);

    freeTheDisk();
    const retried = await owner.client.post("/api/projects", body);
    expect(retried.status).toBe(201);
    expect((await owner.client.get(`/api/projects/${retried.body.id}`)).body.name).toBe(body.name);
    expect(count("SELECT count(*) AS n FROM projects WHERE name = ?", body.name)).toBe(1);
    expect(integrity()).toBe("ok");
    errorLog.mockClear();
  });

  it("re-renders a form post with the message and the typed values when the disk is full", async () => {
    const errorLog = vi.mocked(console.error).mockImplementation(() => {});
    const owner = await signedUpClient();
    await setPlan(owner.organization.id, "enterprise");
    fillTheDisk();
    // Fill the last free pages through the API, then post the form.
    await createUntilRefused(owner.client, "Filler");
    const name = "Typed before the disk filled";
    const page = await owner.client.call("POST", "/projects/new", {
      body: new URLSearchParams({ name, description: "x".repeat(5000) }),
      headers: FORM_HEADERS,
    });
    expect(page.status).toBe(503);
    expect(pageText(page)).toContain(FULL);
    expect(page.text).toContain(`value="${name}"`);
    expect(count("SELECT count(*) AS n FROM projects WHERE name = ?", name)).toBe(0);

    freeTheDisk();
    const retry = await owner.client.call("POST", "/projects/new", {
      body: new URLSearchParams({ name, description: "x".repeat(5000) }),
      headers: FORM_HEADERS,
    });
    expect(retry.status).toBe(302);
    expect(count("SELECT count(*) AS n FROM projects WHERE name = ?", name)).toBe(1);
    expect(integrity()).toBe("ok");
    errorLog.mockClear();
  });

  it("shows what happened when a page's own code did not catch it: 503 with the message and Retry-After, with JavaScript off or on", async () => {
    const errorLog = vi.mocked(console.error).mockImplementation(() => {});
    const owner = await signedUpClient();
    const full = Object.assign(new Error("database or disk is full"), { code: "SQLITE_FULL" });
    // The new-project page's action and the organization switcher (a resource route), made to hit a
    // full disk where no formFailure catches it.
    const withFullDisk = () => {
      const raw = assembledBuild();
      for (const id of ["routes/_app.projects.new", "routes/_app.admin._index"]) {
        raw.routes[id] = { ...raw.routes[id]!, module: { ...raw.routes[id]!.module, action: async () => Promise.reject(full) } };
      }
      return raw;
    };
    const post = (build: ServerBuild, path: string) =>
      createRequestHandler(
        build,
        "production",
      )(
        new Request(`${ORIGIN}${path}`, {
          method: "POST",
          headers: { ...FORM_HEADERS, Origin: ORIGIN, Cookie: [...owner.client.jar].map(([k, v]) => `${k}=${v}`).join("; ") },
          body: new URLSearchParams({ intent: "switch-organization", organizationId: owner.organization.id }),
        }),
      );

    const page = await post(withStorageFullPages(withFullDisk()), "/projects/new");
    expect(page.status).toBe(503);
    expect(page.headers.get("Retry-After")).toBe("60");
    const text = pageText({ text: await page.text() } as ApiResult);
    expect(text).toContain("Temporarily unavailable");
    expect(text).toContain(FULL);
    expect(errorLog.mock.calls.some((c) => String(c[0]).includes("disk full"))).toBe(true);

    // With JavaScript on, the same answer reaches the page's error boundary as a 503.
    const data = await post(withStorageFullPages(withFullDisk()), "/projects/new.data");
    expect(data.status).toBe(503);
    expect(await data.text()).toContain(FULL);

    // A resource route answers with the message itself.
    const resource = await post(withStorageFullPages(withFullDisk()), "/admin?index");
    expect([resource.status, resource.headers.get("Retry-After"), await resource.text()]).toEqual([503, "60", FULL]);

    // Unguarded, Remix could only say that something went wrong.
    const bare = await post(withFullDisk(), "/projects/new");
    expect(bare.status).toBe(500);
    expect(pageText({ text: await bare.text() } as ApiResult)).not.toContain(FULL);
    errorLog.mockClear();
  });
});
