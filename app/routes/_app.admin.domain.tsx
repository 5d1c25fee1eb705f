import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as withHeaders } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { PostButton } from "~/components/post-button";
import { Field, FormAlert, SubmitButton, Notice } from "~/components/forms";
import { TableScroll } from "~/components/table-scroll";
import { isAdmin } from "~/domain/actor";
import { setDomainSchema } from "~/domain/domains/domains.schema";
import { getDomain, removeDomain, setDomain, verifyDomain } from "~/domain/domains/domains.server";
import { readFlash, redirectWithNotice } from "~/http/ui/flash.server";
import { intentAction } from "~/http/ui/intent-action.server";
import { requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Custom domain · Administration · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if (!isAdmin(actor)) return { allowed: false as const };
  const [domain, { flash, headers }] = await Promise.all([getDomain(actor), readFlash(request)]);
  return withHeaders({ allowed: true as const, domain, flash }, { headers });
}

const back = async (message: string) => redirectWithNotice("/admin/domain", message);

export const action = intentAction({
  set: async ({ actor, values }) => {
    const input = setDomainSchema.parse({ domain: values.domain ?? "" });
    await setDomain(actor, input);
    return back(`Domain ${input.domain} saved. Create the two DNS records below, then verify.`);
  },
  verify: async ({ actor }) => {
    const { result } = await verifyDomain(actor);
    return { verifyResult: result };
  },
  remove: async ({ actor }) => {
    await removeDomain(actor);
    return back("Custom domain removed.");
  },
});

export default function DomainPage() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (!data.allowed) return null;
  const state = result && "formError" in result ? result : null;
  const d = data.domain;
  const notice = data.flash?.kind === "notice" ? data.flash.message : null;
  const verified = result && "verifyResult" in result ? result.verifyResult : null;
  return (
    <div className="stack" style={{ maxWidth: 760 }}>
      <Notice message={notice} />
      {verified ? (
        <div className={`alert ${verified.verified ? "alert-success" : "alert-error"}`} role={verified.verified ? "status" : "alert"}>
          <p>{verified.message}</p>
        </div>
      ) : null}
      <FormAlert state={state} />
      <section className="card" aria-labelledby="domain-heading">
        <h2 id="domain-heading">Custom domain</h2>
        <p className="muted">Share links opened on your own domain show your branding, and only your organization's links work there.</p>
        <Form method="post" className="form" noValidate>
          <input type="hidden" name="intent" value="set" />
          <Field
            label="Domain"
            name="domain"
            state={state?.intent === "set" ? state : null}
            defaultValue={d?.domain ?? ""}
            placeholder="docs.example.com"
            hint="A hostname without https:// or a path. Changing it needs a new verification."
          />
          <div>
            <SubmitButton pendingText="Saving…" className="btn btn-primary">
              Save domain
            </SubmitButton>
          </div>
        </Form>
      </section>
      {d ? (
        <section className="card" aria-labelledby="records-heading">
          <h2 id="records-heading">
            DNS records for {d.domain} <span className={`badge ${d.verified ? "badge-success" : ""}`}>{d.verified ? "Verified" : "Not verified"}</span>
          </h2>
          <p>Create these two records at your DNS provider, then verify. DNS changes can take a while to appear.</p>
          <TableScroll label="DNS records">
            <table className="table">
              <caption className="sr-only">DNS records to create</caption>
              <thead>
                <tr>
                  <th scope="col">Type</th>
                  <th scope="col">Name</th>
                  <th scope="col">Value</th>
                </tr>
              </thead>
              <tbody>
                {d.records.map((r) => (
                  <tr key={r.type}>
                    <td>{r.type}</td>
                    <td>
                      <code style={{ userSelect: "all" }}>{r.name}</code>
                    </td>
                    <td>
                      <code style={{ userSelect: "all", wordBreak: "break-all" }}>{r.value}</code>
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <div className="inline" style={{ marginTop: 12, gap: 8, display: "flex" }}>
            <Form method="post">
              <input type="hidden" name="intent" value="verify" />
              <SubmitButton pendingText="Checking DNS…" className="btn btn-primary">
                Verify
              </SubmitButton>
            </Form>
            <PostButton intent="remove" className="btn btn-secondary">
              Remove domain
            </PostButton>
          </div>
          <h3 style={{ marginTop: 16 }}>Last check</h3>
          {d.lastCheck ? (
            <dl data-testid="last-check">
              <dt>When</dt>
              <dd>{new Date(d.lastCheck.at).toUTCString()}</dd>
              <dt>CNAME</dt>
              <dd>{d.lastCheck.checks.cname ? "found" : "missing or wrong"}</dd>
              <dt>TXT</dt>
              <dd>{d.lastCheck.checks.txt ? "found" : "missing or wrong"}</dd>
              <dt>Result</dt>
              <dd>{d.lastCheck.message}</dd>
            </dl>
          ) : (
            <p className="muted">Not checked yet. Verify once both records exist (up to 5 checks a minute).</p>
          )}
        </section>
      ) : (
        <div className="card empty-state">
          <h2>No custom domain yet</h2>
          <p>Enter a domain above to get the DNS records to create.</p>
        </div>
      )}
    </div>
  );
}
