import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { FormAlert, SubmitButton } from "~/components/forms";
import { TableScroll } from "~/components/table-scroll";
import { TRIGGER_LABELS } from "~/domain/approvals/approvals.schema";
import { decideApproval, listApprovals } from "~/domain/approvals/decisions.server";
import { type IntentArgs, intentAction } from "~/http/ui/intent-action.server";
import { requireUiActor } from "~/http/ui/ui.server";
import { plural } from "~/utils/plural";

export const meta: MetaFunction = () => [{ title: "Approvals · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const approvals = await listApprovals(actor, {});
  return {
    toDecide: approvals.filter((a) => a.canDecide),
    mine: approvals.filter((a) => a.requestedBy?.id === actor.user.id),
  };
}

const decide = async ({ actor, values, intent }: IntentArgs) => {
  const decision = intent === "reject" ? "reject" : "approve";
  const result = await decideApproval(actor, values.approvalId ?? "", decision, (values.comment ?? "").slice(0, 1000));
  return { notice: `Request ${result.status === "pending" ? "recorded" : result.status}: ${result.target.label}` };
};

export const action = intentAction({ approve: decide, reject: decide });

export default function Approvals() {
  const { toDecide, mine } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  return (
    <div className="stack">
      <header className="page-header">
        <h1>Approvals</h1>
      </header>
      {result && "formError" in result ? <FormAlert state={result} /> : null}
      {result && "notice" in result ? (
        <p role="status" className="card">
          {result.notice}
        </p>
      ) : null}
      <section className="card stack" aria-labelledby="to-decide">
        <h2 id="to-decide">Waiting for your decision</h2>
        {toDecide.length === 0 ? (
          <p>Nothing waits for you. Requests appear here when a workflow names you as an approver.</p>
        ) : (
          toDecide.map((a) => (
            <Form method="post" key={a.id} className="stack">
              <h3>
                {TRIGGER_LABELS[a.triggerType]}: {a.target.label}
              </h3>
              <p>
                Requested by {a.requestedBy?.name ?? "a former member"} · {a.approvals} of {plural(a.requiredApprovals, "approval")}
              </p>
              <input type="hidden" name="approvalId" value={a.id} />
              <label htmlFor={`comment-${a.id}`}>Comment (optional)</label>
              <textarea id={`comment-${a.id}`} name="comment" maxLength={1000} />
              <div>
                <SubmitButton name="intent" value="approve">
                  Approve
                </SubmitButton>{" "}
                <button type="submit" name="intent" value="reject" className="btn btn-secondary">
                  Reject
                </button>
              </div>
            </Form>
          ))
        )}
      </section>
      <section className="card stack" aria-labelledby="requested">
        <h2 id="requested">Requested by me</h2>
        {mine.length === 0 ? (
          <p>You have no approval requests. Actions guarded by a workflow (such as moving a project to Approved) create one.</p>
        ) : (
          <TableScroll label="Approvals requested by me">
            <table className="table">
              <thead>
                <tr>
                  <th>Action</th>
                  <th>Target</th>
                  <th>Status</th>
                  <th>Approvals</th>
                </tr>
              </thead>
              <tbody>
                {mine.map((a) => (
                  <tr key={a.id}>
                    <td>{TRIGGER_LABELS[a.triggerType]}</td>
                    <td>{a.target.label}</td>
                    <td>
                      <span className="badge">{a.status}</span>
                    </td>
                    <td>
                      {a.approvals} / {a.requiredApprovals}
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
