/** Plain, readable transactional e-mails. Each returns subject, text and html. */

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

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
    `After 5 failed sign-in attempts your account is locked for ${minutes} minutes.`,
    "If these attempts were not yours, reset your password when the lock ends.",
  ]);
