import { appUrl } from "~/config.server";
import { db } from "~/db.server";
import { withBrandHeader } from "../mail/templates";
import { brandingForOrg } from "./branding.server";

/**
 * The HTML of an outgoing e-mail with its organization's branding (header in
 * the primary colour with the company name and logo) when the organization
 * has set any; unchanged otherwise. Meant to be applied in queueEmail.
 */
export async function brandEmailHtml(orgId: string | null | undefined, html: string | null | undefined, executor = db) {
  if (!orgId || !html) return html ?? null;
  const b = await brandingForOrg(orgId, executor);
  const custom = b.companyName || b.logoUrl || b.primaryColor.toLowerCase() !== "#4f46e5";
  if (!custom) return html;
  // Our own logo path gets APP_URL in front; a logo given as an outside URL is used as it is.
  const logoUrl = !b.logoUrl ? null : /^https?:\/\//i.test(b.logoUrl) ? b.logoUrl : `${appUrl()}${b.logoUrl}`;
  return withBrandHeader(html, { ...b, logoUrl });
}
