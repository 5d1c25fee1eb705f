/** The invitation e-mail (plain text and simple HTML, escaped). */

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function invitationMessage(input: { orgName: string; inviterName: string; role: string; message: string | null; url: string }) {
  const title = `${input.inviterName} invited you to ${input.orgName} on PRD Studio`;
  const paragraphs = [
    `${input.inviterName} invited you to join ${input.orgName} as ${input.role === "admin" ? "an admin" : `a ${input.role}`}.`,
    ...(input.message ? [`Their message: "${input.message}"`] : []),
    "The link is valid for 7 days and works once. If you do not have an account yet, you can create one from the same page.",
  ];
  const text = [...paragraphs, `Accept the invitation: ${input.url}`].join("\n\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937;max-width:560px;margin:auto;padding:24px">
<h1 style="font-size:20px">${escape(title)}</h1>
${paragraphs.map((p) => `<p>${escape(p)}</p>`).join("\n")}
<p><a href="${escape(input.url)}" style="display:inline-block;background:#4f46e5;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">Accept invitation</a></p>
<p style="font-size:12px;color:#6b7280">${escape(input.url)}</p>
</body></html>`;
  return { subject: title, text, html };
}
