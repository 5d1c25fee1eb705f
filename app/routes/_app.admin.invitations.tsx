import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as withHeaders } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { CopyButton } from "~/components/copy-button";
import { PostButton } from "~/components/post-button";
import { Field, FieldNotes, FormAlert, SubmitButton, Notice } from "~/components/forms";
import { TableScroll } from "~/components/table-scroll";
import { appUrl } from "~/config.server";
import { type Actor, isAdmin } from "~/domain/actor";
import { limitFor } from "~/domain/billing/plans";
import { cancelInvitation, createInvitation, invitationLink, listInvitations, resendInvitation } from "~/domain/orgs/invitation-admin.server";
import { mailIsDelivered } from "~/domain/mail/mail.server";
import { listOrgMembers } from "~/domain/orgs/members.server";
import { createInvitationSchema } from "~/domain/orgs/orgs.schema";
import { readFlash, redirectWithNotice } from "~/http/ui/flash.server";
import { intentAction } from "~/http/ui/intent-action.server";
import { requireUiActor } from "~/http/ui/ui.server";
import { plural } from "~/utils/plural";

export const meta: MetaFunction = () => [{ title: "Invitations · Administration · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if (!isAdmin(actor)) return { allowed: false as const };
  const [invitations, members, { flash, headers }] = await Promise.all([listInvitations(actor), listOrgMembers(actor), readFlash(request)]);
  return withHeaders(
    {
      allowed: true as const,
      invitations,
      memberCount: members.length,
      limit: limitFor(actor.org.plan, "members"),
      flash,
      mailDelivered: mailIsDelivered(),
    },
    { headers },
  );
}

/** What an invitation e-mail needs about the request. */
const mailMeta = (actor: Actor) => ({ ip: actor.ip, userAgent: actor.userAgent, appUrl: appUrl() });

export const action = intentAction({
  link: async ({ actor, values }) => {
    const { invitation, url } = await invitationLink(actor, values.invitationId ?? "", mailMeta(actor));
    return { link: { email: invitation.email, url, expiresAt: invitation.expiresAt } };
  },
  resend: async ({ actor, values }) => {
    const inv = await resendInvitation(actor, values.invitationId ?? "", mailMeta(actor));
    return redirectWithNotice("/admin/invitations", `A new invitation was sent to ${inv.email}; the previous link no longer works.`);
  },
  cancel: async ({ actor, values }) => {
    await cancelInvitation(actor, values.invitationId ?? "");
    return redirectWithNotice("/admin/invitations", `The invitation to ${values.email ?? "that address"} was cancelled.`);
  },
  invite: async ({ actor, values }) => {
    const input = createInvitationSchema.parse({ email: values.email, role: values.role, message: values.message || undefined });
    const inv = await createInvitation(actor, input, mailMeta(actor));
    const message = mailIsDelivered()
      ? `Invitation sent to ${inv.email}.`
      : `Invitation to ${inv.email} created. No e-mail is sent from this server: use Copy link below and send them the link.`;
    return redirectWithNotice("/admin/invitations", message);
  },
});

const date = (iso: string) => new Date(iso).toLocaleDateString("en-GB", { dateStyle: "medium" });

export default function Invitations() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (!data.allowed) return null;
  const state = result && "formError" in result ? result : null;
  const link = result && "link" in result ? result.link : null;
  const inviteState = state?.intent === "invite" ? state : null;
  const notice = data.flash?.kind === "notice" ? data.flash.message : null;
  const open = data.invitations.filter((i) => !i.expired).length;
  const seats =
    data.limit === -1
      ? "Your plan has no member limit."
      : `${plural(data.memberCount, "member")} and ${plural(open, "open invitation")} of ${plural(data.limit, "seat")}.`;
  return (
    <div className="stack">
      <Notice message={notice} />
      {state && !inviteState ? <FormAlert state={state} /> : null}
      {link ? (
        <section className="card" aria-labelledby="link-heading">
          <h2 id="link-heading">Invitation link for {link.email}</h2>
          <p className="muted">
            Send this link to {link.email} yourself (chat, your own e-mail). It works once, for that address only, until {date(link.expiresAt)}.
          </p>
          <div className="secret-box">
            <label htmlFor="invitation-link" className="sr-only">
              Invitation link for {link.email}
            </label>
            <input id="invitation-link" readOnly value={link.url} onFocus={(e) => e.currentTarget.select()} />
            <CopyButton value={link.url} />
          </div>
        </section>
      ) : null}
      <section className="card" aria-labelledby="invite-heading" style={{ maxWidth: 560 }}>
        <h2 id="invite-heading">Invite someone</h2>
        <p className="muted">
          {seats}{" "}
          {data.mailDelivered
            ? "They get an e-mail with a link valid for 7 days."
            : "This server sends no e-mail (no SMTP server is configured): after inviting, use Copy link and send the link to them yourself. It is valid for 7 days."}
        </p>
        <FormAlert state={inviteState} />
        {/* Remounted after each new invitation, so the fields start empty again (JavaScript on). */}
        <Form key={data.invitations.length} method="post" className="form" noValidate>
          <input type="hidden" name="intent" value="invite" />
          <Field label="E-mail" name="email" type="email" state={inviteState} autoComplete="off" required />
          <div className="field">
            <label htmlFor="field-role">Role</label>
            <select id="field-role" name="role" defaultValue={inviteState?.values?.role ?? "member"} aria-describedby="field-role-hint">
              <option value="admin">Admin — manages members, settings and billing</option>
              <option value="member">Member — creates and edits projects</option>
              <option value="viewer">Viewer — reads what is shared</option>
            </select>
            <FieldNotes id="field-role" hint="You can change it later." error={inviteState?.fieldErrors?.role} />
          </div>
          <div className="field">
            <label htmlFor="field-message">Personal message (optional)</label>
            <textarea id="field-message" name="message" rows={3} maxLength={1000} defaultValue={inviteState?.values?.message ?? ""} />
            <FieldNotes id="field-message" error={inviteState?.fieldErrors?.message} />
          </div>
          <div>
            <SubmitButton pendingText="Sending…" className="btn btn-primary">
              Send invitation
            </SubmitButton>
          </div>
        </Form>
      </section>
      <section className="card" aria-labelledby="pending-heading">
        <h2 id="pending-heading">Pending invitations</h2>
        {data.invitations.length === 0 ? (
          <div className="empty-state">
            <h3>No pending invitations</h3>
            <p>Invitations you send appear here until they are accepted or cancelled.</p>
          </div>
        ) : (
          <TableScroll label="Pending invitations">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">E-mail</th>
                  <th scope="col">Role</th>
                  <th scope="col">Invited by</th>
                  <th scope="col">Expires</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.invitations.map((i) => (
                  <tr key={i.id}>
                    <td>{i.email}</td>
                    <td>{i.role}</td>
                    <td>{i.invitedBy?.name ?? "—"}</td>
                    <td>{i.expired ? <span className="badge badge-warning">Expired</span> : date(i.expiresAt)}</td>
                    <td className="inline">
                      <PostButton
                        intent="link"
                        fields={{ invitationId: i.id }}
                        label={`Copy link to the invitation for ${i.email}`}
                        className="btn btn-secondary btn-sm"
                      >
                        Copy link
                      </PostButton>
                      <PostButton
                        intent="resend"
                        fields={{ invitationId: i.id }}
                        label={`Resend the invitation to ${i.email}`}
                        className="btn btn-secondary btn-sm"
                      >
                        Resend
                      </PostButton>
                      <PostButton
                        intent="cancel"
                        fields={{ invitationId: i.id, email: i.email }}
                        label={`Cancel the invitation to ${i.email}`}
                        className="btn btn-danger btn-sm"
                      >
                        Cancel
                      </PostButton>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
    </div>
  );
}
