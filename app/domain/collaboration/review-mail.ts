/** The e-mail that carries a stakeholder's personal review link (plain text and simple HTML, escaped). */

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export function reviewLinkMessage(input: {
  requesterName: string;
  reviewerName: string | null;
  projectName: string;
  reviewName: string;
  notes: string | null;
  url: string;
}) {
  const title = `${input.requesterName} asks you to review “${input.projectName}”`;
  const paragraphs = [
    `Hi ${input.reviewerName ?? "there"},`,
    `${input.requesterName} asked you to review the PRD “${input.projectName}” (${input.reviewName}). Open your personal review link to read it, then approve it or request changes. You do not need an account.`,
    ...(input.notes ? [`Their note: "${input.notes}"`] : []),
    "The link is yours alone: your decision is recorded under your name, so please do not forward it.",
  ];
  const text = [...paragraphs, `Review the PRD: ${input.url}`].join("\n\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937;max-width:560px;margin:auto;padding:24px">
<h1 style="font-size:20px">${escape(title)}</h1>
${paragraphs.map((p) => `<p>${escape(p)}</p>`).join("\n")}
<p><a href="${escape(input.url)}" style="display:inline-block;background:#4f46e5;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">Review the PRD</a></p>
<p style="font-size:12px;color:#6b7280">${escape(input.url)}</p>
</body></html>`;
  return { subject: title, text, html };
}
