import sharp from "sharp";
import { expect } from "vitest";
import type { Role } from "#db/schema";
import type { Actor } from "~/domain/actor";
import { signedUpClient, type TestClient } from "../support/client";
import { type Account, setPlan } from "../support/org";

/** Helpers for the export rendering tests (HTML, DOCX, Mermaid): branded organizations, uploaded images, actors. */

export const png = (width: number, height: number, color = { r: 200, g: 30, b: 90 }) =>
  sharp({ create: { width, height, channels: 3, background: color } })
    .png()
    .toBuffer();

export const jpeg = (width: number, height: number) =>
  sharp({ create: { width, height, channels: 3, background: { r: 10, g: 120, b: 200 } } })
    .jpeg()
    .toBuffer();

/** An owner on the pro plan whose organization has colours, a company name and (optionally) a logo. */
export async function brandedOwner(options: { logo?: boolean; companyName?: string; name?: string } = {}) {
  const owner = await signedUpClient({ name: options.name ?? "Bea Brand" });
  await setPlan(owner.organization.id, "pro");
  const body: Record<string, unknown> = { primaryColor: "#0f766e", accentColor: "#f59e0b" };
  if (options.companyName !== undefined) body.companyName = options.companyName;
  if (options.logo) body.logo = `data:image/png;base64,${(await png(120, 40)).toString("base64")}`;
  const res = await owner.client.post("/api/organization/branding", body);
  expect(res.status, res.text).toBe(200);
  return owner;
}

export async function newProject(client: TestClient, name: string) {
  const res = await client.post("/api/projects", { name });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
}

/** POST /api/upload/image; returns the image's URL (/api/uploads/images/{id}). */
export async function uploadImage(client: TestClient, projectId: string, bytes: Buffer, name = "shot.png") {
  const fd = new FormData();
  fd.append("file", new File([bytes as BlobPart], name));
  fd.append("projectId", projectId);
  const res = await client.call("POST", "/api/upload/image", { body: fd });
  expect(res.status, res.text).toBe(201);
  return res.body as { url: string; contentType: string; width: number; height: number };
}

/** The domain Actor of an account in its organization. */
export function actorOf(account: Account, role: Role = "owner", orgId = account.organization.id): Actor {
  return {
    user: { id: account.user.id, email: account.email, name: account.user.name, emailVerified: true, timezone: "UTC" },
    org: { id: orgId, name: account.organization.name, plan: "pro" },
    role,
    via: "session",
    isSuperadmin: false,
    ip: null,
    userAgent: null,
  };
}

/** Markdown that tries every way we know to get script or an outside request into an export. */
export const XSS_MARKDOWN = `
Hello <script>alert("s1")</script> world.

<img src="x" onerror="alert('s2')"> <svg onload="alert('s3')"><circle r="4"/></svg>

<iframe src="https://evil.example/frame"></iframe>
<object data="https://evil.example/x.swf"></object>
<embed src="https://evil.example/x.swf">
<link rel="stylesheet" href="https://evil.example/x.css">
<style>@import url(https://evil.example/y.css); body { background: url(https://evil.example/z.png) }</style>
<form action="https://evil.example/post"><input name="q"><button>Go</button></form>
<a href="javascript:alert('s4')" onclick="alert('s5')">js link</a>
<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">data link</a>
<div style="background:url(https://evil.example/bg.png)" onmouseover="alert('s6')">styled</div>
<p><img src="https://evil.example/track.gif" alt="tracker"></p>
<math><mi xlink:href="javascript:alert('s7')">m</mi></math>
<base href="https://evil.example/">
<meta http-equiv="refresh" content="0;url=https://evil.example/">

[md js](javascript:alert('s8')) [md vb](vbscript:msgbox) ![remote](https://evil.example/remote.png)
`;
