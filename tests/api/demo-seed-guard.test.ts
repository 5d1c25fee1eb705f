import { beforeAll, describe, expect, it, vi } from "vitest";
import { DEMO_EMAIL, PEOPLE } from "#db/seed/demo/people";
import { resetConfigForTests } from "~/config.server";
import { db } from "~/db.server";
import { passwordProblems } from "~/domain/auth/password";
import { signedUpClient, TestClient } from "../support/client";

/**
 * `npm run db:seed` on a database that is not a fresh demo one: it makes five
 * accounts and an Enterprise owner able to mint API keys, so it refuses in
 * production and next to other organizations (writing nothing) unless
 * forced; it prints a fresh password rather than a published one; and a
 * failure halfway leaves no account behind (one transaction).
 */

const failure = vi.hoisted(() => ({ inSignOff: false }));
vi.mock("#db/seed/demo/reviews", async (importOriginal) => {
  const real = await importOriginal<typeof import("#db/seed/demo/reviews")>();
  return {
    ...real,
    signOff: async (...args: Parameters<typeof real.signOff>) => {
      if (failure.inSignOff) throw new Error("the disk went away halfway");
      return real.signOff(...args);
    },
  };
});

const { seedDemo, SeedRefused } = await import("#db/seed/demo/seed");

async function counts() {
  const row = async (table: "users" | "organizations" | "projects" | "memberships" | "templates" | "comments") =>
    Number(
      (
        await db
          .selectFrom(table)
          .select((eb) => eb.fn.countAll<number>().as("n"))
          .executeTakeFirstOrThrow()
      ).n,
    );
  return {
    users: await row("users"),
    orgs: await row("organizations"),
    projects: await row("projects"),
    memberships: await row("memberships"),
    templates: await row("templates"),
    comments: await row("comments"),
  };
}

const demoAccounts = () =>
  db
    .selectFrom("users")
    .select("email")
    .where(
      "email",
      "in",
      PEOPLE.map((p) => p.email),
    )
    .execute();

beforeAll(async () => {
  // The built-in templates exist on a running server before anyone seeds.
  const { ensureSystemTemplates } = await import("~/domain/templates/system.server");
  await ensureSystemTemplates();
});

describe("the demo seed's guards", () => {
  it("refuses with NODE_ENV=production, writing nothing", async () => {
    const before = await counts();
    const saved = process.env.NODE_ENV;
    process.env.NODE_ENV = "production";
    resetConfigForTests();
    try {
      await expect(seedDemo()).rejects.toThrow(SeedRefused);
      await expect(seedDemo()).rejects.toThrow(/NODE_ENV is production.*--force/);
    } finally {
      process.env.NODE_ENV = saved;
      resetConfigForTests();
    }
    expect(await counts()).toEqual(before);
  });

  it("writes everything in one transaction: a failure halfway leaves no account that can sign in", async () => {
    const before = await counts();
    failure.inSignOff = true;
    try {
      await expect(seedDemo({ password: "Halfway-Pass-1" })).rejects.toThrow("the disk went away halfway");
    } finally {
      failure.inSignOff = false;
    }
    expect(await counts()).toEqual(before);
    expect(await demoAccounts()).toEqual([]);
    const signIn = await new TestClient("10.62.0.1").post("/api/auth/sign-in", { email: DEMO_EMAIL, password: "Halfway-Pass-1" });
    expect(signIn.status).toBe(401);
  });

  it("refuses on a database that holds another organization, unless forced", async () => {
    const stranger = await signedUpClient({ name: "Existing Customer" });
    const before = await counts();
    await expect(seedDemo()).rejects.toThrow(/already has 1 organization.*Nothing was written.*--force/);
    expect(await counts()).toEqual(before);
    expect(await demoAccounts()).toEqual([]);

    const forced = await seedDemo({ force: true });
    expect(forced.created).toBe(true);
    // The customer's workspace is untouched and sees nothing of the demo.
    expect((await stranger.client.get("/api/projects")).body.total).toBe(0);
  }, 60_000);

  it("prints a fresh password that meets the password rule, and the published one does not sign in", async () => {
    const again = await seedDemo();
    expect(again.created).toBe(false);
    const owner = new TestClient("10.62.0.2");
    expect((await owner.post("/api/auth/sign-in", { email: DEMO_EMAIL, password: "Demo-Password-1" })).status).toBe(401);
  });
});

describe("the demo password", () => {
  it("is random each time and meets the password rule", async () => {
    const { demoPassword } = await import("#db/seed/demo/people");
    const made = Array.from({ length: 50 }, () => demoPassword());
    expect(new Set(made).size).toBe(50);
    for (const p of made) {
      expect(passwordProblems(p)).toEqual([]);
      expect(p).toMatch(/^[A-Za-z0-9]{5}-[a-z0-9]{5}-[a-z0-9]{5}$/);
    }
  });
});
