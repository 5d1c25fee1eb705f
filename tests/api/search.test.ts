import { beforeAll, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { matchExpression, renderSnippet, searchTerms } from "~/domain/search/search.server";
import { signedUpClient, type TestClient } from "../support/client";

type Signed = Awaited<ReturnType<typeof signedUpClient>>;

async function proOrg() {
  const s = await signedUpClient();
  await db.updateTable("organizations").set({ plan: "pro" }).where("id", "=", s.organization.id).execute();
  return s;
}

async function createProject(client: TestClient, body: Record<string, unknown>, prd?: string) {
  const res = await client.post("/api/projects", body);
  expect(res.status, res.text).toBe(201);
  if (prd !== undefined) {
    const saved = await client.post(`/api/projects/${res.body.id}/prd`, { content: prd });
    expect(saved.status, saved.text).toBe(201);
  }
  return res.body as { id: string; name: string };
}

const search = (client: TestClient, params: Record<string, string | number>) =>
  client.get(`/api/search?${new URLSearchParams(Object.entries(params).map(([k, v]) => [k, String(v)]))}`);

const ids = (res: { body: { results: { projectId: string }[] } }) => res.body.results.map((r) => r.projectId);

let a: Signed;
let b: Signed;
let nameHit: { id: string };
let contentHit: { id: string };
let descriptionHit: { id: string };

beforeAll(async () => {
  a = await proOrg();
  b = await proOrg();
  // bm25's IDF is clamped to ~0 for a word in more than half of the index: pad it.
  for (let i = 1; i <= 6; i++) await createProject(b.client, { name: `Filler ${i}`, description: "Nothing to see" });
  // Created first, so a tie on score would put it last (newer first): ranking must win.
  nameHit = await createProject(a.client, { name: "Kestrel payments dashboard", description: "Finance overview" });
  contentHit = await createProject(
    a.client,
    { name: "Quarterly planning", description: "Roadmap for the next quarter" },
    "# Plan\n\nWe will revisit kestrel later this year, together with the warehouse team.",
  );
  descriptionHit = await createProject(a.client, { name: "Ops review", description: "Kestrel cost tracking for ops" });
});

describe("GET /api/search — ranking and response", () => {
  it("ranks a name match above a description match above a content-only match", async () => {
    const res = await search(a.client, { q: "kestrel" });
    expect(res.status, res.text).toBe(200);
    expect(res.headers.get("API-Version")).toBe("1");
    expect(res.body.mode).toBe("keyword");
    expect(res.body.query).toBe("kestrel");
    expect(res.body.total).toBe(3);
    expect(ids(res)).toEqual([nameHit.id, descriptionHit.id, contentHit.id]);
    const [first, second, third] = res.body.results;
    expect(first.matchedIn).toEqual(["name"]);
    expect(second.matchedIn).toEqual(["description"]);
    expect(third.matchedIn).toEqual(["content"]);
    expect(first.score).toBeGreaterThan(second.score);
    expect(second.score).toBeGreaterThan(third.score);
    expect(third.score).toBeGreaterThan(0);
    expect(first).toMatchObject({
      projectId: nameHit.id,
      name: "Kestrel payments dashboard",
      status: "DRAFT",
      priority: null,
      updatedAt: expect.any(String),
    });
    expect(Object.keys(first).sort()).toEqual(["matchedIn", "name", "priority", "projectId", "score", "snippet", "status", "updatedAt"].sort());
    expect(Math.round(first.score * 1000) / 1000).toBe(first.score);
  });

  it("ANDs the terms and matches English word forms (porter)", async () => {
    expect(ids(await search(a.client, { q: "kestrel dashboard" }))).toEqual([nameHit.id]);
    expect(ids(await search(a.client, { q: "kestrel warehouse" }))).toEqual([contentHit.id]);
    expect((await search(a.client, { q: "kestrel nothingmatchesthis" })).body.total).toBe(0);
    // "payment" and "dashboards" stem like "payments" and "dashboard".
    expect(ids(await search(a.client, { q: "kestrel payment dashboards" }))).toEqual([nameHit.id]);
  });

  it("matches the last term as a prefix, also where the stemmer changes the prefix", async () => {
    const p = await createProject(a.client, { name: "Mobile onboarding checklist", description: "Configuration wizard" });
    expect(ids(await search(a.client, { q: "onboa" }))).toEqual([p.id]);
    expect(ids(await search(a.client, { q: "mobile onb" }))).toEqual([p.id]);
    expect(ids(await search(a.client, { q: "checkl" }))).toEqual([p.id]);
    // Only the last term is a prefix.
    expect((await search(a.client, { q: "onboa mobile" })).body.total).toBe(0);
    // Porter turns "pay" into "pai"; the index's own terms keep "pay" finding "payments".
    expect(ids(await search(a.client, { q: "pay" }))).toContain(nameHit.id);
    // Typed past the stem: "configura" is not a prefix of the stem "configur".
    expect(ids(await search(a.client, { q: "configura" }))).toEqual([p.id]);
    expect(ids(await search(a.client, { q: "configuration" }))).toEqual([p.id]);
    // Porter turns "res" into "re", which would match "review"; "res" stays "res".
    const results = await createProject(a.client, { name: "Results digest" });
    expect(ids(await search(a.client, { q: "res" }))).toEqual([results.id]);
    // A last term under 3 characters is a whole word, not a prefix of half the index.
    expect((await search(a.client, { q: "mobile o" })).body.total).toBe(0);
    expect((await search(a.client, { q: "mobile on" })).body.total).toBe(0);
    const ux = await createProject(a.client, { name: "UX audit" });
    expect(ids(await search(a.client, { q: "ux" }))).toEqual([ux.id]);
  });

  it("highlights matches with <mark> and escapes HTML from the content", async () => {
    const p = await createProject(
      a.client,
      { name: "Security hardening", description: "" },
      'Intro.\n\n<script>alert("zebrafish")</script> The zebrafish & <b>friends</b> rollout.',
    );
    const res = await search(a.client, { q: "zebrafish" });
    expect(ids(res)).toEqual([p.id]);
    const [hit] = res.body.results;
    expect(hit.matchedIn).toEqual(["content"]);
    expect(hit.snippet).toContain("<mark>zebrafish</mark>");
    expect(hit.snippet).toContain("&lt;script&gt;alert(&quot;<mark>zebrafish</mark>&quot;)&lt;/script&gt;");
    expect(hit.snippet).toContain("&amp; &lt;b&gt;friends&lt;/b&gt;");
    expect(hit.snippet).not.toMatch(/<(?!\/?mark>)/);
    expect(hit.snippet).not.toMatch(/[\uE000\uE001]/);

    const named = (await search(a.client, { q: "kestrel dash" })).body.results[0];
    expect(named.snippet).toBe("<mark>Kestrel</mark> payments <mark>dashboard</mark>");
  });

  it("renders snippets safely even with stray marker characters", () => {
    expect(renderSnippet("a \uE000b\uE001 <i>")).toBe("a <mark>b</mark> &lt;i&gt;");
    expect(renderSnippet("\uE001x\uE000\uE000y")).toBe("x<mark>y</mark>");
    expect(renderSnippet("one\n\n  two")).toBe("one two");
  });

  it("builds the MATCH expression from quoted terms only", () => {
    expect(searchTerms(' "  ** ( ) ')).toEqual([]);
    expect(matchExpression([])).toBeNull();
    expect(matchExpression(searchTerms('say "hi" OR name:xyz'))).toBe('"say" AND """hi""" AND "OR" AND "name:xyz"*');
    expect(searchTerms("a\u0000b\tc")).toEqual(["a", "b", "c"]);
    expect(matchExpression(["alpha", "be"])).toBe('"alpha" AND "be"');
    expect(matchExpression(["alpha", "bet"])).toBe('"alpha" AND "bet"*');
    expect(matchExpression(["pay"], { alternatives: ["payment", "payrol"] })).toBe('("pay"* OR "payment" OR "payrol")');
    expect(matchExpression(["res"], { prefix: false, alternatives: ["result"] })).toBe('("res" OR "result")');
  });

  it("treats quotes, operators and punctuation in q as text, never as errors", async () => {
    const queries = [
      '"kestrel',
      'kestrel"',
      'kes"trel',
      "kestrel'",
      "kestrel AND",
      "OR kestrel",
      "NOT kestrel",
      "kestrel NEAR(",
      "kestrel*",
      "*kestrel",
      "^kestrel",
      "-kestrel",
      "+kestrel",
      "name:kestrel",
      "{name}: kestrel",
      "(kestrel",
      "kestrel)",
      "kestrel\\",
      "kestrel % _",
      "kestrel 🚀",
      "kestrel\u0000x",
      "ké strél",
      "x".repeat(200),
      "a b c d e f g h i j k l m n o p q r s t u v w x y z",
    ];
    for (const q of queries) {
      const res = await search(a.client, { q });
      expect(res.status, `${q}: ${res.text}`).toBe(200);
      expect(Array.isArray(res.body.results)).toBe(true);
    }
    expect(ids(await search(a.client, { q: '"kestrel"' }))).toEqual([nameHit.id, descriptionHit.id, contentHit.id]);
    expect(ids(await search(a.client, { q: "KESTREL," }))).toHaveLength(3);
    for (const q of ['"', "'", "*", "()", "- + ^", ":", '" "', "🚀"]) {
      const res = await search(a.client, { q });
      expect(res.status, `${q}: ${res.text}`).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
      expect(res.body.details[0].path).toBe("q");
    }
  });
});

describe("GET /api/search — visibility", () => {
  it("never returns another organization's projects", async () => {
    const theirs = await createProject(b.client, { name: "Kestrel payments dashboard (B)" }, "kestrel kestrel kestrel");
    const mine = await search(a.client, { q: "kestrel", limit: 50 });
    expect(mine.body.total).toBe(3);
    expect(ids(mine)).not.toContain(theirs.id);
    const other = await search(b.client, { q: "kestrel", limit: 50 });
    expect(ids(other)).toEqual([theirs.id]);
    expect(other.body.total).toBe(1);
  });

  it("shows a viewer only the projects they collaborate on", async () => {
    const v = await signedUpClient();
    // Move the new user into organization A as a viewer.
    await db.updateTable("memberships").set({ orgId: a.organization.id, role: "viewer" }).where("userId", "=", v.user.id).execute();
    await db.updateTable("sessions").set({ orgId: a.organization.id }).where("userId", "=", v.user.id).execute();
    const before = await search(v.client, { q: "kestrel" });
    expect(before.status, before.text).toBe(200);
    expect(before.body).toMatchObject({ results: [], total: 0 });

    await db
      .insertInto("projectCollaborators")
      .values({
        id: crypto.randomUUID(),
        projectId: contentHit.id,
        userId: v.user.id,
        role: "viewer",
        addedById: a.user.id,
        createdAt: new Date().toISOString(),
      })
      .execute();
    const after = await search(v.client, { q: "kestrel" });
    expect(ids(after)).toEqual([contentHit.id]);
    expect(after.body.total).toBe(1);
    // The owner still sees all three.
    expect((await search(a.client, { q: "kestrel" })).body.total).toBe(3);
  });

  it("requires a signed-in user or API key", async () => {
    const { TestClient } = await import("../support/client");
    const res = await search(new TestClient("10.9.9.9"), { q: "kestrel" });
    expect(res.status).toBe(401);
    expect(res.body.code).toBe("UNAUTHORIZED");
  });
});

describe("GET /api/search — the index follows changes", () => {
  it("reflects a rename, a PRD save and a delete", async () => {
    const p = await createProject(a.client, { name: "Legacy importer", description: "Moves old data" });
    expect(ids(await search(a.client, { q: "legacy importer" }))).toEqual([p.id]);

    const renamed = await a.client.patch(`/api/projects/${p.id}`, { name: "Quasar importer" });
    expect(renamed.status, renamed.text).toBe(200);
    expect(ids(await search(a.client, { q: "quasar" }))).toEqual([p.id]);
    expect((await search(a.client, { q: "legacy" })).body.total).toBe(0);

    const described = await a.client.patch(`/api/projects/${p.id}`, { description: "Handles marmalade feeds" });
    expect(described.status).toBe(200);
    const byDescription = await search(a.client, { q: "marmalade" });
    expect(ids(byDescription)).toEqual([p.id]);
    expect(byDescription.body.results[0].matchedIn).toEqual(["description"]);

    expect((await search(a.client, { q: "xylophone" })).body.total).toBe(0);
    const saved = await a.client.post(`/api/projects/${p.id}/prd`, { content: "# Importer\n\nXylophone integration first." });
    expect(saved.status, saved.text).toBe(201);
    const byContent = await search(a.client, { q: "xylophone" });
    expect(ids(byContent)).toEqual([p.id]);
    expect(byContent.body.results[0].matchedIn).toEqual(["content"]);
    expect(byContent.body.results[0].snippet).toContain("<mark>Xylophone</mark> integration first.");

    const replaced = await a.client.post(`/api/projects/${p.id}/prd`, { content: "# Importer\n\nTrombone only." });
    expect(replaced.status).toBe(200);
    expect((await search(a.client, { q: "xylophone" })).body.total).toBe(0);
    expect(ids(await search(a.client, { q: "trombone" }))).toEqual([p.id]);

    const deleted = await a.client.delete(`/api/projects/${p.id}`);
    expect(deleted.body).toEqual({ success: true });
    for (const q of ["quasar", "marmalade", "trombone"]) {
      expect((await search(a.client, { q })).body.total, q).toBe(0);
    }
  });

  it("filters by status", async () => {
    const p = await createProject(a.client, { name: "Kestrel migration", status: "IN_REVIEW" });
    expect(ids(await search(a.client, { q: "kestrel", status: "IN_REVIEW" }))).toEqual([p.id]);
    expect((await search(a.client, { q: "kestrel", status: "in review,draft" })).body.total).toBe(4);
    expect((await search(a.client, { q: "kestrel", status: "APPROVED" })).body.total).toBe(0);
    const bad = await search(a.client, { q: "kestrel", status: "NOPE" });
    expect(bad.status).toBe(400);
    expect(bad.body.code).toBe("INVALID_STATUS");
    await a.client.delete(`/api/projects/${p.id}`);
  });
});

describe("GET /api/search — validation and paging", () => {
  it("answers semantic and hybrid with keyword results and says so when no embedding provider is configured", async () => {
    const keywordOnly = await search(a.client, { q: "kestrel", mode: "keyword" });
    for (const mode of ["semantic", "hybrid"]) {
      const res = await search(a.client, { q: "kestrel", mode });
      expect(res.status).toBe(200);
      expect(res.body.mode).toBe("keyword");
      expect(res.body.requestedMode).toBe(mode);
      expect(res.body.notice).toMatch(/No embedding provider/);
      expect(res.body.results).toEqual(keywordOnly.body.results);
    }
    const unknown = await search(a.client, { q: "kestrel", mode: "fuzzy" });
    expect(unknown.status).toBe(400);
    expect(unknown.body.details[0].path).toBe("mode");
    const keyword = await search(a.client, { q: "kestrel", mode: "keyword" });
    expect(keyword.status).toBe(200);
  });

  it("requires q of 1 to 200 characters", async () => {
    for (const path of ["/api/search", "/api/search?q=", "/api/search?q=%20%20", `/api/search?q=${"k".repeat(201)}`]) {
      const res = await a.client.get(path);
      expect(res.status, path).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
      expect(res.body.details[0].path).toBe("q");
    }
  });

  it("pages with limit and offset and reports the total", async () => {
    const created: string[] = [];
    for (let i = 1; i <= 7; i++) created.push((await createProject(a.client, { name: `Heron widget ${i}` })).id);
    const first = await search(a.client, { q: "heron", limit: 3 });
    expect(first.body.total).toBe(7);
    expect(first.body.results).toHaveLength(3);
    const second = await search(a.client, { q: "heron", limit: 3, offset: 3 });
    expect(second.body.total).toBe(7);
    expect(second.body.results).toHaveLength(3);
    const last = await search(a.client, { q: "heron", limit: 3, offset: 6 });
    expect(last.body.total).toBe(7);
    expect(last.body.results).toHaveLength(1);
    const beyond = await search(a.client, { q: "heron", limit: 3, offset: 20 });
    expect(beyond.body).toMatchObject({ results: [], total: 7 });
    const all = [...ids(first), ...ids(second), ...ids(last)];
    expect(new Set(all).size).toBe(7);
    expect([...all].sort()).toEqual([...created].sort());
    // Equal scores: the most recently updated first.
    expect(ids(await search(a.client, { q: "heron", limit: 50 }))).toEqual([...created].reverse());
    expect((await search(a.client, { q: "heron" })).body.results).toHaveLength(7);

    for (const bad of [{ limit: 0 }, { limit: 51 }, { limit: "x" }, { offset: -1 }] as Record<string, string | number>[]) {
      const res = await search(a.client, { q: "heron", ...bad });
      expect(res.status, JSON.stringify(bad)).toBe(400);
      expect(res.body.code).toBe("VALIDATION_ERROR");
      expect(res.body.details[0].path).toBe(Object.keys(bad)[0]);
    }
  });

  it("pages beyond the ranked depth the same as within it (matches ranked a slice at a time, a page may straddle two)", async () => {
    const { rankDepth } = await import("~/domain/search/search.server");
    for (let i = 1; i <= 6; i++) await createProject(a.client, { name: `Osprey gadget ${i}`, description: i % 2 ? "osprey osprey" : "" });
    const full = ids(await search(a.client, { q: "osprey", limit: 50 }));
    expect(full).toHaveLength(6);
    const saved = rankDepth.depth;
    rankDepth.depth = 2;
    try {
      // A write makes every cached ranking stale: these rank afresh under the small depth.
      await createProject(a.client, { name: "Unrelated heron" });
      const pages = [];
      for (let offset = 0; offset < 6; offset += 2) {
        const page = await search(a.client, { q: "osprey", limit: 2, offset });
        expect(page.body.total).toBe(6);
        pages.push(...ids(page));
      }
      expect(pages).toEqual(full);
      // Pages of 3 over slices of 2: each takes the end of one slice and the start of the next.
      const straddling = [];
      for (let offset = 0; offset < 6; offset += 3) straddling.push(...ids(await search(a.client, { q: "osprey", limit: 3, offset })));
      expect(straddling).toEqual(full);
      const past = await search(a.client, { q: "osprey", limit: 2, offset: 6 });
      expect(ids(past)).toEqual([]);
      expect(past.body.total).toBe(6);
    } finally {
      rankDepth.depth = saved;
    }
  });

  it("is documented in /api/openapi.json", async () => {
    const doc = (await a.client.get("/api/openapi.json")).body;
    const op = doc.paths["/api/search"].get;
    const query = op.parameters.filter((p: { in?: string }) => p.in === "query");
    expect(query.map((p: { name: string }) => p.name).sort()).toEqual(["limit", "mode", "offset", "q", "status"]);
    expect(op.description).toContain("reciprocal rank fusion");
  });
});
