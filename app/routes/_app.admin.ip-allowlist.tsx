import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { PostButton } from "~/components/post-button";
import { Field, FormAlert, SubmitButton } from "~/components/forms";
import { TableScroll } from "~/components/table-scroll";
import { isAdmin } from "~/domain/actor";
import { addAllowlistEntry, addEntrySchema, listAllowlist, removeAllowlistEntry } from "~/domain/allowlist/allowlist.server";
import { planAtLeast, PLAN_NAMES } from "~/domain/billing/plans";
import { intentAction } from "~/http/ui/intent-action.server";
import { requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "IP allowlist · Admin · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const currentIp = actor.ip;
  if (!isAdmin(actor)) return { state: "forbidden" as const, currentIp };
  if (!planAtLeast(actor.org.plan, "enterprise")) return { state: "upgrade" as const, currentIp, plan: PLAN_NAMES[actor.org.plan] };
  return { state: "ok" as const, currentIp, entries: await listAllowlist(actor) };
}

export const action = intentAction({
  add: async ({ actor, values }) => {
    await addAllowlistEntry(actor, addEntrySchema.parse(values));
    return redirect("/admin/ip-allowlist");
  },
  delete: async ({ actor, values }) => {
    await removeAllowlistEntry(actor, values.id ?? "");
    return redirect("/admin/ip-allowlist");
  },
});

export default function IpAllowlist() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const state = result && "formError" in result ? result : null;
  const current = (
    <p>
      Your current address is <code data-testid="current-ip">{data.currentIp ?? "unknown"}</code>.
    </p>
  );
  if (data.state === "forbidden") {
    return (
      <div className="card empty-state">
        <h2>The IP allowlist is managed by admins</h2>
        {current}
      </div>
    );
  }
  if (data.state === "upgrade") {
    return (
      <div className="card empty-state">
        <h2>IP allowlist is an Enterprise feature</h2>
        <p>Your organization is on the {data.plan} plan. Upgrade to Enterprise (billing settings) to restrict access to your office or VPN addresses.</p>
        {current}
      </div>
    );
  }
  return (
    <div className="stack">
      <section className="card" aria-labelledby="allowlist-heading">
        <h2 id="allowlist-heading">IP allowlist</h2>
        <p>When the list has entries, members can only use PRD Studio (pages, API and API keys) from these addresses. Others get “403 IP not allowed”.</p>
        {current}
        <FormAlert state={state} />
        {data.entries.length === 0 ? (
          <div className="empty-state">
            <h3>No entries: access is allowed from any address</h3>
            <p>Start with an entry that covers your current address, then add your office or VPN ranges.</p>
          </div>
        ) : (
          <TableScroll label="IP allowlist">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Address or range</th>
                  <th scope="col">Label</th>
                  <th scope="col">Added</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.entries.map((e) => (
                  <tr key={e.id}>
                    <td>
                      <code>{e.cidr}</code>
                    </td>
                    <td>{e.label || "—"}</td>
                    <td>{new Date(e.createdAt).toLocaleDateString("en-GB", { dateStyle: "medium" })}</td>
                    <td>
                      <PostButton intent="delete" fields={{ id: e.id }} label={`Remove ${e.cidr}`} className="btn btn-danger btn-sm">
                        Remove
                      </PostButton>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
      <section className="card" aria-labelledby="add-heading" style={{ maxWidth: 560 }}>
        <h2 id="add-heading">Add an address or range</h2>
        <Form method="post" className="form" noValidate>
          <input type="hidden" name="intent" value="add" />
          <Field
            label="IP address or CIDR"
            name="cidr"
            state={state}
            placeholder="203.0.113.0/24"
            hint="IPv4 or IPv6, e.g. 198.51.100.7, 203.0.113.0/24 or 2001:db8::/48."
            defaultValue={data.entries.length === 0 ? (data.currentIp ?? undefined) : undefined}
            required
          />
          <Field label="Label (optional)" name="label" state={state} placeholder="Berlin office" />
          <div>
            <SubmitButton pendingText="Adding…">Add to allowlist</SubmitButton>
          </div>
        </Form>
      </section>
    </div>
  );
}
