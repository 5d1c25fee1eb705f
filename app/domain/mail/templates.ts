import { plural } from "~/utils/plural";

/** Plain, readable transactional e-mails. Each returns subject, text and html. */

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function layout(title: string, paragraphs: string[], action?: { label: string; url: string }) {
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : [])].join("\n\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937;max-width:560px;margin:auto;padding:24px">
<h1 style="font-size:20px">${escape(title)}</h1>
${paragraphs.map((p) => `<p>${escape(p)}</p>`).join("\n")}
${action ? `<p><a href="${escape(action.url)}" style="display:inline-block;background:#4f46e5;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escape(action.label)}</a></p><p style="font-size:12px;color:#6b7280">${escape(action.url)}</p>` : ""}
</body></html>`;
  return { subject: title, text, html };
}

export const verifyEmailMessage = (name: string, url: string) =>
  layout(
    "Confirm your e-mail address",
    [`Hi ${name},`, "Confirm your e-mail address to finish setting up your PRD Studio account. The link is valid for 48 hours."],
    { label: "Confirm e-mail", url },
  );

export const resetPasswordMessage = (name: string, url: string) =>
  layout(
    "Reset your password",
    [
      `Hi ${name},`,
      "Someone asked to reset the password of your PRD Studio account. The link is valid for one hour and works once.",
      "If it was not you, ignore this message: your password stays as it is.",
    ],
    { label: "Choose a new password", url },
  );

export const passwordChangedMessage = (name: string) =>
  layout("Your password was changed", [
    `Hi ${name},`,
    "The password of your PRD Studio account was just changed and your other sessions were signed out.",
    "If this was not you, reset your password now and contact your administrator.",
  ]);

export const accountLockedMessage = (name: string, minutes: number) =>
  layout("Sign-in temporarily locked", [
    `Hi ${name},`,
    `After 5 failed sign-in attempts your account is locked for ${plural(minutes, "minute")}.`,
    "If these attempts were not yours, reset your password when the lock ends.",
  ]);

/**
 * Adds an organization's branding to a message built by `layout`: a header
 * band in its primary colour with its company name (and logo when given as
 * an absolute URL); buttons take the colour too. Unchanged without branding.
 */
export function withBrandHeader(html: string, brand: { companyName?: string | null; primaryColor?: string | null; logoUrl?: string | null }) {
  const color = brand.primaryColor && /^#[0-9a-fA-F]{3,6}$/.test(brand.primaryColor) ? brand.primaryColor : null;
  if (!brand.companyName && !color) return html;
  const logo =
    brand.logoUrl && /^https?:\/\//.test(brand.logoUrl)
      ? `<img src="${escape(brand.logoUrl)}" alt="" height="28" style="vertical-align:middle;margin-right:8px">`
      : "";
  const header = `<div style="background:${color ?? "#4f46e5"};color:#fff;padding:12px 16px;border-radius:6px;font-weight:700">${logo}${escape(brand.companyName || "")}</div>`;
  return html.replace(/(<body[^>]*>)/, `$1\n${header}`).replaceAll("background:#4f46e5;", `background:${color ?? "#4f46e5"};`);
}
