import { describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { GOOD_PASSWORD, ORIGIN, TestClient, signedUpClient, uniqueEmail } from "../support/client";
import { pageText } from "../support/page";

/** Account pages driven like a browser without JavaScript: urlencoded form posts, redirects, the page again. */

const FORM_HEADERS = { "Content-Type": "application/x-www-form-urlencoded", Host: new URL(ORIGIN).host };
const postForm = (client: TestClient, path: string, fields: [string, string][]) =>
  client.call("POST", path, { body: new URLSearchParams(fields), headers: FORM_HEADERS });

/** The page's text as a reader sees it. */
const text = pageText;

const wizard = (extra: [string, string][] = []): [string, string][] => [
  ["intent", "complete"],
  ["fullName", "Grace Hopper"],
  ["jobTitle", "Rear admiral"],
  ["company", "Navy"],
  ["useCase", "Compiler specs"],
  ["teamSize", "11-50"],
  ["prdStyle", "technical"],
  ["interests", "ai"],
  ["interests", "api"],
  ...extra,
];

describe("sign-up and the onboarding wizard", () => {
  it("sends a new account to /onboarding, which completes, prefills on return and shows on the home checklist", async () => {
    const client = new TestClient("10.88.0.1");
    const signUp = await postForm(client, "/sign-up", [
      ["name", "Grace"],
      ["email", uniqueEmail("grace")],
      ["password", GOOD_PASSWORD],
      ["timezone", "UTC"],
    ]);
    expect(signUp.status, signUp.text.slice(0, 300)).toBe(302);
    expect(signUp.headers.get("Location")).toBe("/onboarding");

    const page = await client.get("/onboarding");
    expect(page.status).toBe(200);
    expect(text(page)).toContain("Set up your workspace");
    expect(page.text).toMatch(/<label for="field-company">Company<\/label>/);
    expect(page.text).toContain("Skip for now");

    const done = await postForm(
      client,
      "/onboarding",
      wizard([
        ["createOrg", "on"],
        ["orgName", "Compiler Crew"],
        ["inviteEmails", "kim@example.com\nlee@example.com"],
      ]),
    );
    expect(done.status, done.text.slice(0, 500)).toBe(302);
    expect(done.headers.get("Location")).toBe("/home?welcome=1");

    const status = await client.get("/api/user/onboarding");
    expect(status.body).toMatchObject({ completed: true, preferences: { company: "Navy", interests: ["ai", "api"], prdStyle: "technical" } });
    const me = (await client.get("/api/auth/me")).body;
    expect(me.organization.name).toBe("Compiler Crew");
    const invites = await db.selectFrom("invitations").select("email").where("orgId", "=", me.organization.id).execute();
    expect(invites.map((i) => i.email).sort()).toEqual(["kim@example.com", "lee@example.com"]);

    const again = await client.get("/onboarding");
    expect(again.text).toMatch(/value="Navy"/);
    expect(again.text).toMatch(/name="interests" checked="" value="api"/);
    expect(again.text).toMatch(/name="interests" value="templates"/);

    const home = await client.get("/home?welcome=1");
    expect(text(home)).toContain("Welcome to PRD Studio, Grace");
    expect(home.text).toMatch(/Complete your profile<\/strong><span class="sr-only"> \(done\)/);
    expect(home.text).toMatch(/Invite a teammate<\/strong><span class="sr-only"> \(done\)/);
    expect(home.text).toMatch(/Write your first PRD<\/strong><span class="sr-only"> \(to do\)/);
    expect(text(home)).toContain("2 of 5 done");
    expect(text(home)).not.toContain("Finish setting up");
  });

  it("shows field errors without JavaScript, and Skip for now leaves onboarding incomplete", async () => {
    const { client } = await signedUpClient();
    const bad = await postForm(client, "/onboarding", [
      ["intent", "complete"],
      ["fullName", "G"],
      ["inviteEmails", "nope"],
    ]);
    expect(bad.status).toBe(400);
    expect(text(bad)).toContain("Company is required");
    expect(text(bad)).toContain("valid e-mail address");
    expect(bad.text).toMatch(/>nope<\/textarea>/);

    const skip = await postForm(client, "/onboarding", [["intent", "skip"]]);
    expect(skip.status).toBe(302);
    expect(skip.headers.get("Location")).toBe("/home?welcome=1");
    expect((await client.get("/api/user/onboarding")).body.completed).toBe(false);
    const home = await client.get("/home");
    expect(text(home)).toContain("Finish setting up");
    expect(text(home)).toContain("0 of 5 done");
  });
});

describe("account settings page", () => {
  it("edits the profile and timezone, and shows server-side errors", async () => {
    const { client } = await signedUpClient({ name: "Settings Person" });
    const page = await client.get("/settings");
    expect(page.status).toBe(200);
    expect(page.text).toContain('value="Settings Person"');
    expect(page.text).toContain('<option value="Europe/Paris">');
    expect(page.text).toContain('href="/api/user/data-export"');

    const saved = await postForm(client, "/settings?index", [
      ["intent", "profile"],
      ["name", "Settings P."],
      ["jobTitle", "Designer"],
      ["bio", "Draws boxes"],
      ["avatar", "https://example.com/me.png"],
      ["preferredStyle", "agile"],
      ["timezone", "Europe/Paris"],
    ]);
    expect(saved.status, saved.text.slice(0, 500)).toBe(302);
    expect(saved.headers.get("Location")).toBe("/settings?saved=1");
    const profile = (await client.get("/api/user/profile")).body.profile;
    expect(profile).toMatchObject({ name: "Settings P.", jobTitle: "Designer", bio: "Draws boxes", preferredStyle: "agile", timezone: "Europe/Paris" });
    expect(text(await client.get("/settings?saved=1"))).toContain("Profile saved.");

    const bad = await postForm(client, "/settings?index", [
      ["intent", "profile"],
      ["name", "Settings P."],
      ["avatar", "javascript:alert(1)"],
      ["timezone", "Nowhere/Land"],
    ]);
    expect(bad.status).toBe(400);
    expect(text(bad)).toContain("The avatar must be an http or https URL");
    expect((await client.get("/api/user/profile")).body.profile.timezone).toBe("Europe/Paris");
  });

  it("deletes the account after the e-mail is typed, then signing in fails", async () => {
    const { client, email } = await signedUpClient();
    const wrong = await postForm(client, "/settings?index", [
      ["intent", "delete"],
      ["confirmEmail", "someone@example.com"],
    ]);
    expect(wrong.status).toBe(400);
    expect(text(wrong)).toContain("Type your account e-mail exactly");

    const gone = await postForm(client, "/settings?index", [
      ["intent", "delete"],
      ["confirmEmail", email],
    ]);
    expect(gone.status).toBe(302);
    expect(gone.headers.get("Location")).toBe("/sign-in?accountDeleted=1");
    const farewell = await new TestClient("10.88.9.8").get("/sign-in?accountDeleted=1");
    expect(farewell.text).toContain("Your account and its data were deleted.");
    expect((await client.get("/settings")).status).toBe(302);
    const signIn = await new TestClient("10.88.9.9").post("/api/auth/sign-in", { email, password: GOOD_PASSWORD });
    expect(signIn.status).toBe(401);
  });
});
