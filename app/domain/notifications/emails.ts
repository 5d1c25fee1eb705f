import { plural } from "~/utils/plural";

/** The notification and digest e-mails: plain text plus a small HTML version, each with an unsubscribe link. */

const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

function layout(title: string, paragraphs: string[], unsubscribe: { url: string; what: string }, action?: { label: string; url: string }) {
  const footer = `You receive this because ${unsubscribe.what} is on in your notification settings. Unsubscribe: ${unsubscribe.url}`;
  const text = [...paragraphs, ...(action ? [`${action.label}: ${action.url}`] : []), "--", footer].join("\n\n");
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937;max-width:560px;margin:auto;padding:24px">
<h1 style="font-size:20px">${escape(title)}</h1>
${paragraphs.map((p) => `<p>${escape(p)}</p>`).join("\n")}
${action ? `<p><a href="${escape(action.url)}">${escape(action.label)}</a></p>` : ""}
<p style="font-size:12px;color:#6b7280">You receive this because ${escape(unsubscribe.what)} is on in your notification settings. <a href="${escape(unsubscribe.url)}">Unsubscribe</a></p>
</body></html>`;
  return { subject: title, text, html };
}

export function notificationMessage(input: {
  name: string;
  title: string;
  body: string | null;
  link: string | null;
  appUrl: string;
  categoryLabel: string;
  unsubscribeUrl: string;
}) {
  return layout(
    input.title,
    [`Hi ${input.name},`, ...(input.body ? [input.body] : [])],
    { url: input.unsubscribeUrl, what: input.categoryLabel },
    input.link ? { label: "Open in PRD Studio", url: `${input.appUrl}${input.link}` } : undefined,
  );
}

export function digestMessage(input: {
  name: string;
  unread: { title: string; createdAt: string }[];
  unreadCount: number;
  activity: { projectName: string; summary: string }[];
  activityCount: number;
  appUrl: string;
  unsubscribeUrl: string;
}) {
  const lines = [`Hi ${input.name}, here is your week in PRD Studio.`];
  if (input.unreadCount) {
    lines.push(`You have ${plural(input.unreadCount, "unread notification")}:`);
    lines.push(input.unread.map((n) => `• ${n.title}`).join("\n"));
  }
  if (input.activityCount) {
    lines.push(`${plural(input.activityCount, "change")} on your projects in the last 7 days:`);
    lines.push(input.activity.map((a) => `• ${a.projectName}: ${a.summary}`).join("\n"));
  }
  return layout(
    "Your weekly PRD Studio digest",
    lines,
    { url: input.unsubscribeUrl, what: "the weekly digest" },
    {
      label: "Open your notifications",
      url: `${input.appUrl}/notifications`,
    },
  );
}
