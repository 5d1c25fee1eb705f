import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as withHeaders } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { FormAlert, Notice } from "~/components/forms";
import { TableScroll } from "~/components/table-scroll";
import { isAdmin } from "~/domain/actor";
import { changeMemberRole, listOrgMembers, removeMember, transferOwnership } from "~/domain/orgs/members.server";
import { assignableRole } from "~/domain/orgs/orgs.schema";
import { readFlash, redirectWithNotice } from "~/http/ui/flash.server";
import { intentAction } from "~/http/ui/intent-action.server";
import { type FormValues, requireUiActor } from "~/http/ui/ui.server";
import { plural } from "~/utils/plural";

export const meta: MetaFunction = () => [{ title: "Members · Administration · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if (!isAdmin(actor)) return { allowed: false as const };
  const [members, { flash, headers }] = await Promise.all([listOrgMembers(actor), readFlash(request)]);
  return withHeaders({ allowed: true as const, members, myRole: actor.role, meId: actor.user.id, flash }, { headers });
}

const member = (values: FormValues) => ({ userId: values.userId ?? "", who: values.name || "The member" });

export const action = intentAction({
  role: async ({ actor, values }) => {
    const { userId, who } = member(values);
    const role = assignableRole.parse(values.role);
    await changeMemberRole(actor, userId, role);
    return redirectWithNotice("/admin/members", `${who} is now ${role === "admin" ? "an admin" : `a ${role}`}.`);
  },
  remove: async ({ actor, values }) => {
    const { userId, who } = member(values);
    const { reassigned } = await removeMember(actor, userId, values.reassignTo || undefined);
    const message = `${who} was removed.${values.reassignTo ? ` ${plural(reassigned, "project")} reassigned.` : " Their projects stay in the organization."}`;
    return redirectWithNotice(userId === actor.user.id ? "/home" : "/admin/members", message);
  },
  transfer: async ({ actor, values }) => {
    const { userId, who } = member(values);
    await transferOwnership(actor, userId);
    return redirectWithNotice("/admin/members", `${who} now owns the organization; you are an admin.`);
  },
});

const ROLES = ["admin", "member", "viewer"] as const;

export default function Members() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (!data.allowed) return null;
  const state = result && "formError" in result ? result : null;
  const notice = data.flash?.kind === "notice" ? data.flash.message : null;
  const isOwner = data.myRole === "owner";
  return (
    <div className="stack">
      <Notice message={notice} />
      <FormAlert state={state} />
      <section className="card" aria-labelledby="members-heading">
        <h2 id="members-heading">Members ({data.members.length})</h2>
        <p className="muted">
          Owners and admins manage the organization; members edit their own projects; viewers read what is shared with them. Removing someone keeps their
          projects in the organization, optionally handing them to another member.
        </p>
        <TableScroll label="Members">
          <table className="table">
            <thead>
              <tr>
                <th scope="col">Name</th>
                <th scope="col">E-mail</th>
                <th scope="col">Role</th>
                <th scope="col">Remove</th>
              </tr>
            </thead>
            <tbody>
              {data.members.map((m) => {
                const locked = m.role === "owner" && !isOwner;
                const others = data.members.filter((o) => o.id !== m.id);
                return (
                  <tr key={m.id}>
                    <td>
                      {m.user.name} {m.isYou ? <span className="badge">you</span> : null}
                    </td>
                    <td>{m.user.email}</td>
                    <td>
                      {m.role === "owner" ? (
                        <span className="badge">Owner</span>
                      ) : (
                        <Form method="post" className="status-form">
                          <input type="hidden" name="intent" value="role" />
                          <input type="hidden" name="userId" value={m.id} />
                          <input type="hidden" name="name" value={m.user.name} />
                          <label className="sr-only" htmlFor={`role-${m.id}`}>
                            Role of {m.user.name}
                          </label>
                          <select id={`role-${m.id}`} name="role" defaultValue={m.role}>
                            {ROLES.map((r) => (
                              <option key={r} value={r}>
                                {r[0]!.toUpperCase() + r.slice(1)}
                              </option>
                            ))}
                          </select>{" "}
                          <button type="submit" className="btn btn-secondary btn-sm">
                            Change role
                          </button>
                        </Form>
                      )}
                    </td>
                    <td>
                      {locked || (m.role === "owner" && m.isYou) ? (
                        <span className="muted">{m.isYou ? "Transfer ownership first" : "Only owners"}</span>
                      ) : (
                        <Form method="post" className="status-form">
                          <input type="hidden" name="intent" value="remove" />
                          <input type="hidden" name="userId" value={m.id} />
                          <input type="hidden" name="name" value={m.user.name} />
                          <label className="sr-only" htmlFor={`reassign-${m.id}`}>
                            Give {m.user.name}'s projects to
                          </label>
                          <select id={`reassign-${m.id}`} name="reassignTo" defaultValue="">
                            <option value="">Keep projects as they are</option>
                            {others.map((o) => (
                              <option key={o.id} value={o.id}>
                                Give projects to {o.user.name}
                              </option>
                            ))}
                          </select>{" "}
                          <button type="submit" className="btn btn-danger btn-sm" aria-label={m.isYou ? "Leave the organization" : `Remove ${m.user.name}`}>
                            {m.isYou ? "Leave" : "Remove"}
                          </button>
                        </Form>
                      )}
                    </td>
                  </tr>
                );
              })}
            </tbody>
          </table>
        </TableScroll>
      </section>
      {isOwner ? (
        <section className="card" aria-labelledby="transfer-heading" style={{ maxWidth: 560 }}>
          <h2 id="transfer-heading">Transfer ownership</h2>
          {data.members.some((m) => !m.isYou) ? (
            <Form method="post" className="form">
              <input type="hidden" name="intent" value="transfer" />
              <div className="field">
                <label htmlFor="transfer-to">New owner</label>
                <select id="transfer-to" name="userId" required aria-describedby="transfer-hint">
                  {data.members
                    .filter((m) => !m.isYou)
                    .map((m) => (
                      <option key={m.id} value={m.id}>
                        {m.user.name} ({m.user.email})
                      </option>
                    ))}
                </select>
                <span className="hint" id="transfer-hint">
                  They become the owner and you become an admin. This takes effect at once.
                </span>
              </div>
              <div>
                <button type="submit" className="btn btn-danger">
                  Transfer ownership
                </button>
              </div>
            </Form>
          ) : (
            <p className="muted">Invite someone first: ownership can only go to another member.</p>
          )}
        </section>
      ) : null}
    </div>
  );
}
