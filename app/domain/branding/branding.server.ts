import { db } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import { ADMIN_ROLES, type Actor, requireRole } from "../actor";
import { auditActor, writeAudit } from "../audit/audit.server";
import { notFound, validationError } from "../errors";
import { DEFAULT_BRANDING, getOrgSettings, parseOrgSettings, updateOrgSettings } from "../orgs/settings.server";
import type { BrandingUpdate } from "./branding.schema";
import { decodeBase64Logo, reencodeLogo } from "./logo.server";
import { forgetRemoteLogos, logoUrlProblem } from "./remote-logo.server";

/**
 * Branding of an organization: colours and company name live in
 * organizations.settings.branding (read and merged by orgs/settings.server);
 * the logo's bytes are a row of `blobs`, referenced from
 * settings.brandingLogo = {blobId, sha256}, and served publicly at
 * /api/branding/logo/{orgId}/{hash} (the hash changes with every upload, so
 * the URL can be cached forever). A logo may also be an outside http(s) URL:
 * stored as given in settings.branding.logoUrl (no blob), shown by browsers
 * from there, and fetched through the guarded outbound request only when an
 * export embeds it (./remote-logo.server).
 */

export type Branding = typeof DEFAULT_BRANDING;

export const logoUrl = (orgId: string, sha256: string) => `/api/branding/logo/${encodeURIComponent(orgId)}/${sha256.slice(0, 16)}`;

/** Branding of any organization by id, with defaults; for the app shell, share pages and e-mails. */
export async function brandingForOrg(orgId: string, executor = db): Promise<Branding> {
  const org = await executor.selectFrom("organizations").select("settings").where("id", "=", orgId).executeTakeFirst();
  return { ...DEFAULT_BRANDING, ...(parseOrgSettings(org?.settings).branding ?? {}) };
}

/** Same, from an already loaded settings JSON string. */
export function brandingFromSettings(settings: string | null | undefined): Branding {
  return { ...DEFAULT_BRANDING, ...(parseOrgSettings(settings).branding ?? {}) };
}

export async function getBranding(actor: Actor) {
  return (await getOrgSettings(actor)).branding;
}

/** Colours, company name and (optionally) a logo: an http(s) URL, a base64 image, or `null` to remove it. */
export async function updateBranding(actor: Actor, input: BrandingUpdate) {
  requireRole(actor, ADMIN_ROLES, "change the branding");
  const { logo, ...rest } = input;
  // Anything with a scheme (https://…, ftp://…) is a URL, checked as one; data: URLs and bare base64 are image bytes.
  if (logo && /^[a-z][a-z0-9+.-]*:\/\//i.test(logo.trim())) await setLogoUrl(actor, logo.trim());
  else if (logo) await uploadLogo(actor, decodeBase64Logo(logo));
  else if (logo === null) await removeLogo(actor);
  if (Object.keys(rest).length > 0) await updateOrgSettings(actor, { settings: { branding: rest } });
  return getBranding(actor);
}

export async function uploadLogo(actor: Actor, data: Buffer) {
  requireRole(actor, ADMIN_ROLES, "change the logo");
  const image = await reencodeLogo(data);
  const url = logoUrl(actor.org.id, image.sha256);
  await db.transaction().execute(async (trx) => {
    const org = await trx.selectFrom("organizations").select(["id", "settings"]).where("id", "=", actor.org.id).executeTakeFirst();
    if (!org) throw notFound("Organization");
    const s = parseOrgSettings(org.settings);
    const blobId = newId();
    await trx.insertInto("blobs").values({ id: blobId, data: image.data, size: image.data.byteLength, sha256: image.sha256, createdAt: nowIso() }).execute();
    const previous = s.brandingLogo?.blobId as string | undefined;
    s.brandingLogo = { blobId, sha256: image.sha256 };
    s.branding = { ...(s.branding ?? {}), logoUrl: url };
    await trx
      .updateTable("organizations")
      .set({ settings: JSON.stringify(s), updatedAt: nowIso() })
      .where("id", "=", org.id)
      .execute();
    if (previous) await trx.deleteFrom("blobs").where("id", "=", previous).execute();
    await writeAudit(trx, {
      ...auditActor(actor),
      action: "organization.logo_updated",
      category: "settings",
      targetType: "organization",
      targetId: org.id,
      metadata: { logoUrl: url, width: image.width, height: image.height, size: image.data.byteLength },
    });
  });
  return { logoUrl: url };
}

/**
 * Stores an outside logo URL in place of any uploaded logo. Checked as a
 * webhook URL is when saved (http or https; no localhost or literal private,
 * loopback or reserved address unless ALLOW_PRIVATE_WEBHOOK_TARGETS=true);
 * names are resolved and checked again each time an export fetches it.
 */
export async function setLogoUrl(actor: Actor, url: string) {
  requireRole(actor, ADMIN_ROLES, "change the logo");
  const problem = logoUrlProblem(url);
  if (problem) throw validationError("logo", problem);
  await replaceLogo(actor, url, { action: "organization.logo_updated", metadata: { logoUrl: url, source: "url" } });
  forgetRemoteLogos();
  return { logoUrl: url };
}

export async function removeLogo(actor: Actor) {
  requireRole(actor, ADMIN_ROLES, "change the logo");
  await replaceLogo(actor, null, { action: "organization.logo_removed" });
}

/** The uploaded logo (its blob deleted) and any logo URL give way to `logoUrl` (null: no logo), audited, in one transaction. */
async function replaceLogo(actor: Actor, logoUrl: string | null, audit: { action: string; metadata?: Record<string, unknown> }) {
  await db.transaction().execute(async (trx) => {
    const org = await trx.selectFrom("organizations").select(["id", "settings"]).where("id", "=", actor.org.id).executeTakeFirst();
    if (!org) throw notFound("Organization");
    const s = parseOrgSettings(org.settings);
    const previous = s.brandingLogo?.blobId as string | undefined;
    delete s.brandingLogo;
    s.branding = { ...(s.branding ?? {}), logoUrl };
    await trx
      .updateTable("organizations")
      .set({ settings: JSON.stringify(s), updatedAt: nowIso() })
      .where("id", "=", org.id)
      .execute();
    if (previous) await trx.deleteFrom("blobs").where("id", "=", previous).execute();
    await writeAudit(trx, { ...auditActor(actor), ...audit, category: "settings", targetType: "organization", targetId: org.id });
  });
}

/** The current logo's PNG bytes when `hash` names it; 404 otherwise (old or guessed URLs). */
export async function readLogo(orgId: string, hash: string) {
  const org = await db.selectFrom("organizations").select("settings").where("id", "=", orgId).executeTakeFirst();
  const ref = parseOrgSettings(org?.settings).brandingLogo as { blobId: string; sha256: string } | undefined;
  if (!ref || !/^[0-9a-f]{16}$/.test(hash) || !ref.sha256.startsWith(hash)) throw notFound("Logo");
  const blob = await db.selectFrom("blobs").select(["data", "sha256"]).where("id", "=", ref.blobId).executeTakeFirst();
  if (!blob) throw notFound("Logo");
  return blob;
}
