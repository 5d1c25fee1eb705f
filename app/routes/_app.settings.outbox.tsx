import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { Fragment } from "react";
import { TableScroll } from "~/components/table-scroll";
import { outboxFor } from "~/domain/mail/mail.server";
import { requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Outbox · Settings · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  return outboxFor(actor);
}

const STATUS: Record<string, { label: string; tone: string }> = {
  queued: { label: "Queued", tone: "badge-warning" },
  sent: { label: "Sent", tone: "badge-success" },
  outbox: { label: "In outbox", tone: "badge-brand" },
  failed: { label: "Failed", tone: "badge-danger" },
};

/** Renders plain text with its URLs as links. */
function Linkified({ text }: { text: string }) {
  const parts = text.split(/(https?:\/\/[^\s]+)/g);
  return (
    <>
      {parts.map((part, i) =>
        /^https?:\/\//.test(part) ? (
          <a key={i} href={part}>
            {part}
          </a>
        ) : (
          <Fragment key={i}>{part}</Fragment>
        ),
      )}
    </>
  );
}

export default function Outbox() {
  const { messages, smtpConfigured, isAdmin } = useLoaderData<typeof loader>();
  return (
    <section className="card" aria-labelledby="outbox-heading">
      <div className="card-header">
        <div>
          <h2 id="outbox-heading">Outbox</h2>
          <p>
            {smtpConfigured
              ? "E-mail is delivered over SMTP. This is a record of what was sent."
              : "No SMTP server is configured (SMTP_URL), so e-mail is kept here instead of being sent."}{" "}
            {isAdmin
              ? "As an owner or admin you see your organization's messages, invitations included; you see messages addressed to you as well."
              : "You see the messages written for your account."}{" "}
            One-time links for confirming an address or resetting a password are never shown here: only the mailbox they were sent to may use them.
            {!smtpConfigured && isAdmin ? " To invite someone, copy the invitation link from Administration → Invitations and send it to them yourself." : null}
          </p>
        </div>
      </div>
      {messages.length === 0 ? (
        <div className="empty-state">
          <h3>No messages yet</h3>
          <p>Notifications, invitations you send and scheduled exports will appear here.</p>
        </div>
      ) : (
        <TableScroll label="Outbox messages">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Message</th>
                <th scope="col">To</th>
                <th scope="col">Status</th>
                <th scope="col">When</th>
              </tr>
            </thead>
            <tbody>
              {messages.map((m) => (
                <tr key={m.id}>
                  <td>
                    <details>
                      <summary>{m.subject}</summary>
                      {m.withheld ? (
                        <p className="muted">{m.text}</p>
                      ) : (
                        <pre style={{ whiteSpace: "pre-wrap", fontFamily: "inherit", margin: "8px 0 0" }}>
                          <Linkified text={m.text} />
                        </pre>
                      )}
                    </details>
                    {m.attachments.length ? <div className="muted">Attached: {m.attachments.join(", ")}</div> : null}
                    {m.lastError ? <div className="field-error">Last error: {m.lastError}</div> : null}
                  </td>
                  <td>{m.toAddress}</td>
                  <td>
                    <span className={`badge ${STATUS[m.status]?.tone ?? ""}`}>{STATUS[m.status]?.label ?? m.status}</span>
                  </td>
                  <td>{new Date(m.createdAt).toLocaleString("en-GB", { dateStyle: "medium", timeStyle: "short" })}</td>
                </tr>
              ))}
            </tbody>
          </table>
        </TableScroll>
      )}
    </section>
  );
}
