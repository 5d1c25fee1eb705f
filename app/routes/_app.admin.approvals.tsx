import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as withHeaders } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { PostButton } from "~/components/post-button";
import { Field, FieldNotes, FormAlert, type FormState, SubmitButton, Notice } from "~/components/forms";
import { TableScroll } from "~/components/table-scroll";
import { isAdmin } from "~/domain/actor";
import { createWorkflowSchema, TRIGGER_LABELS, TRIGGERS, updateWorkflowSchema } from "~/domain/approvals/approvals.schema";
import { createWorkflow, deleteWorkflow, listWorkflows, updateWorkflow } from "~/domain/approvals/workflows.server";
import { planAtLeast, PLAN_NAMES } from "~/domain/billing/plans";
import { AppError } from "~/domain/errors";
import { listMembers } from "~/domain/orgs/members.server";
import { readFlash, redirectWithNotice } from "~/http/ui/flash.server";
import { formFailure, formValues, requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Approval workflows · Administration · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if (!isAdmin(actor)) return { state: "forbidden" as const };
  if (!planAtLeast(actor.org.plan, "enterprise")) return { state: "upgrade" as const, plan: PLAN_NAMES[actor.org.plan] };
  const [workflows, members, { flash, headers }] = await Promise.all([listWorkflows(actor), listMembers(actor), readFlash(request)]);
  return withHeaders({ state: "ok" as const, workflows, members, flash }, { headers });
}

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const raw = request.clone();
  const values = await formValues(request);
  const workflowId = values.workflowId ?? "";
  const intent = values.intent === "update" ? `update:${workflowId}` : values.intent;
  try {
    let message: string;
    if (values.intent === "create") {
      const approverIds = (await raw.formData()).getAll("approverIds").filter((v): v is string => typeof v === "string");
      values.approverIds = approverIds.join(",");
      const input = createWorkflowSchema.parse({
        name: values.name,
        triggerType: values.triggerType,
        approverIds,
        requiredApprovals: values.requiredApprovals || undefined,
        allowSelfApproval: values.allowSelfApproval === "on",
        isActive: values.isActive === "on",
      });
      const workflow = await createWorkflow(actor, input);
      message = `Workflow “${workflow.name}” created.`;
    } else if (values.intent === "update") {
      const workflow = await updateWorkflow(actor, workflowId, updateWorkflowSchema.parse({ requiredApprovals: values.requiredApprovals }));
      message = `Workflow “${workflow.name}” now needs ${workflow.requiredApprovals} approval(s).`;
    } else if (values.intent === "toggle") {
      const workflow = await updateWorkflow(actor, workflowId, { isActive: values.isActive === "true" });
      message = `Workflow “${workflow.name}” ${workflow.isActive ? "activated" : "deactivated"}.`;
    } else if (values.intent === "delete") {
      await deleteWorkflow(actor, workflowId);
      message = `Workflow “${values.name ?? ""}” deleted.`;
    } else {
      throw new AppError("VALIDATION_ERROR", 400, "Unknown action");
    }
    return redirectWithNotice("/admin/approvals", message);
  } catch (error) {
    return formFailure(error, values, [], { intent });
  }
}

type Member = { id: string; name: string; email: string };

function UpgradeMessage({ plan }: { plan: string }) {
  return (
    <div className="card empty-state" role="status">
      <h2>Approval workflows are an Enterprise feature</h2>
      <p>
        Your organization is on the {plan} plan. Upgrade to Enterprise to require sign-off before projects are approved, exported or deleted, or templates are
        published.
      </p>
      <Link className="btn btn-primary" to="/admin/plans">
        See plans and upgrade
      </Link>
    </div>
  );
}

function CreateForm({ members, state }: { members: Member[]; state: FormState | null }) {
  const v = state?.values;
  const chosen = new Set((v?.approverIds ?? "").split(",").filter(Boolean));
  const triggerError = state?.fieldErrors?.triggerType;
  const approverError = state?.fieldErrors?.approverIds;
  const requiredError = state?.fieldErrors?.requiredApprovals;
  return (
    <section className="card" aria-labelledby="new-workflow-heading" style={{ maxWidth: 560 }}>
      <h2 id="new-workflow-heading">New workflow</h2>
      <FormAlert state={state} />
      <Form method="post" className="form" noValidate>
        <input type="hidden" name="intent" value="create" />
        <Field label="Name" name="name" state={state} hint="For example “Legal sign-off”. 1 to 100 characters." required />
        <div className="field">
          <label htmlFor="field-triggerType">Action that needs approval</label>
          <select
            id="field-triggerType"
            name="triggerType"
            defaultValue={v?.triggerType ?? "prd_publish"}
            aria-invalid={triggerError ? true : undefined}
            aria-describedby={triggerError ? "field-triggerType-error" : undefined}
          >
            {TRIGGERS.map((t) => (
              <option key={t} value={t}>
                {TRIGGER_LABELS[t]}
              </option>
            ))}
          </select>
          <FieldNotes id="field-triggerType" error={triggerError} />
        </div>
        <fieldset
          className="field"
          aria-describedby={approverError ? "field-approverIds-error" : "field-approverIds-hint"}
          aria-invalid={approverError ? true : undefined}
        >
          <legend>Approvers</legend>
          {members.map((m) => (
            <label key={m.id}>
              <input type="checkbox" name="approverIds" value={m.id} defaultChecked={chosen.has(m.id)} /> {m.name} <span className="muted">({m.email})</span>
            </label>
          ))}
          <FieldNotes id="field-approverIds" hint="Members who may approve or reject requests." error={approverError} />
        </fieldset>
        <div className="field">
          <label htmlFor="field-requiredApprovals">Required approvals</label>
          <input
            id="field-requiredApprovals"
            name="requiredApprovals"
            type="number"
            min={1}
            max={10}
            defaultValue={v?.requiredApprovals ?? "1"}
            aria-invalid={requiredError ? true : undefined}
            aria-describedby={`field-requiredApprovals-hint${requiredError ? " field-requiredApprovals-error" : ""}`}
          />
          <FieldNotes id="field-requiredApprovals" hint="1 to 10, at most the number of approvers." error={requiredError} />
        </div>
        <label>
          <input type="checkbox" name="allowSelfApproval" defaultChecked={v ? v.allowSelfApproval === "on" : false} /> Allow approvers to approve their own
          requests
        </label>
        <label>
          <input type="checkbox" name="isActive" defaultChecked={v ? v.isActive === "on" : true} /> Active
        </label>
        <div>
          <SubmitButton pendingText="Creating…" className="btn btn-primary">
            Create workflow
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

export default function ApprovalWorkflows() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  if (data.state === "forbidden") return null;
  if (data.state === "upgrade") return <UpgradeMessage plan={data.plan} />;
  const state = result && "formError" in result ? result : null;
  const createState = state?.intent === "create" ? state : null;
  const rowState = state?.intent?.startsWith("update:") ? state : null;
  const notice = data.flash?.kind === "notice" ? data.flash.message : null;
  const names = new Map(data.members.map((m) => [m.id, m.name]));
  return (
    <div className="stack">
      <Notice message={notice} />
      {state && !createState && !rowState ? <FormAlert state={state} /> : null}
      <section className="card" aria-labelledby="workflows-heading">
        <h2 id="workflows-heading">Approval workflows</h2>
        <p>An active workflow holds its action until enough approvers approve it on the Approvals page.</p>
        {data.workflows.length === 0 ? (
          <div className="empty-state">
            <h3>No approval workflows yet</h3>
            <p>Create one below, for example to require a sign-off before a project is moved to Approved.</p>
          </div>
        ) : (
          <TableScroll label="Approval workflows">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">Name</th>
                  <th scope="col">Action</th>
                  <th scope="col">Approvers</th>
                  <th scope="col">Required</th>
                  <th scope="col">Self-approval</th>
                  <th scope="col">Status</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {data.workflows.map((w) => {
                  const err = rowState?.intent === `update:${w.id}` ? (rowState.fieldErrors?.requiredApprovals ?? rowState.formError) : undefined;
                  const fieldId = `required-${w.id}`;
                  return (
                    <tr key={w.id}>
                      <td>{w.name}</td>
                      <td>{TRIGGER_LABELS[w.triggerType]}</td>
                      <td>{w.approverIds.map((id) => names.get(id) ?? "Former member").join(", ")}</td>
                      <td>{w.requiredApprovals}</td>
                      <td>{w.allowSelfApproval ? "Allowed" : "Not allowed"}</td>
                      <td>{w.isActive ? <span className="badge badge-success">Active</span> : <span className="badge">Inactive</span>}</td>
                      <td className="inline">
                        <details open={err ? true : undefined}>
                          <summary aria-label={`Edit ${w.name}`}>Edit</summary>
                          <Form method="post" className="form">
                            <input type="hidden" name="intent" value="update" />
                            <input type="hidden" name="workflowId" value={w.id} />
                            <div className="field">
                              <label htmlFor={fieldId}>Required approvals</label>
                              <input
                                id={fieldId}
                                name="requiredApprovals"
                                type="number"
                                min={1}
                                max={10}
                                defaultValue={err ? rowState?.values?.requiredApprovals : String(w.requiredApprovals)}
                                aria-invalid={err ? true : undefined}
                                aria-describedby={err ? `${fieldId}-error` : undefined}
                              />
                              <FieldNotes id={fieldId} error={err} />
                            </div>
                            <button type="submit" className="btn btn-secondary btn-sm">
                              Save
                            </button>
                          </Form>
                        </details>
                        <PostButton
                          intent="toggle"
                          fields={{ workflowId: w.id, isActive: w.isActive ? "false" : "true" }}
                          label={`${w.isActive ? "Deactivate" : "Activate"} ${w.name}`}
                          className="btn btn-secondary btn-sm"
                        >
                          {w.isActive ? "Deactivate" : "Activate"}
                        </PostButton>
                        <PostButton intent="delete" fields={{ workflowId: w.id, name: w.name }} label={`Delete ${w.name}`} className="btn btn-danger btn-sm">
                          Delete
                        </PostButton>
                      </td>
                    </tr>
                  );
                })}
              </tbody>
            </table>
          </TableScroll>
        )}
      </section>
      <CreateForm members={data.members} state={createState} />
    </div>
  );
}
