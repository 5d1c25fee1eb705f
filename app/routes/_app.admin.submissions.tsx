import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useSearchParams } from "@remix-run/react";
import { FormAlert } from "~/components/forms";
import { RelativeTime } from "~/components/project-badges";
import { adminSubmissionsQuery, reviewSchema, SUBMISSION_STATUSES } from "~/domain/templates/submissions.schema";
import { adminListSubmissions, reviewSubmission } from "~/domain/templates/submissions.server";
import { formFailure, formValues, orPageError, requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Template submissions · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const status = new URL(request.url).searchParams.get("status") ?? "pending";
  const query = adminSubmissionsQuery.parse({ status: SUBMISSION_STATUSES.includes(status as never) ? status : "pending" });
  return orPageError(adminListSubmissions(actor, query));
}

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  try {
    const submission = await reviewSubmission(actor, values.submissionId ?? "", reviewSchema.parse(values));
    return { message: `“${submission.templateName}” ${submission.status}.` };
  } catch (error) {
    return formFailure(error, values);
  }
}

export default function Submissions() {
  const { submissions } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const [params] = useSearchParams();
  const status = params.get("status") ?? "pending";
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Template submissions</h1>
          <p>Approve a template to publish a copy on the public marketplace, or reject it with a reason.</p>
        </div>
      </div>
      <nav className="tabs" aria-label="Submission status">
        {SUBMISSION_STATUSES.map((s) => (
          <Link key={s} to={`?status=${s}`} className={s === status ? "active" : undefined}>
            {s[0]!.toUpperCase() + s.slice(1)}
          </Link>
        ))}
      </nav>
      {result && "message" in result ? (
        <div className="alert alert-success" role="status">
          <p>{result.message}</p>
        </div>
      ) : null}
      <FormAlert state={result && "formError" in result ? result : null} />
      {submissions.length === 0 ? (
        <div className="card empty-state">
          <h2>Nothing {status}</h2>
          <p>Submissions from every organization appear here.</p>
        </div>
      ) : (
        <div className="stack">
          {submissions.map((s) => (
            <article key={s.id} className="card">
              <h2>{s.templateName}</h2>
              <p className="muted">
                by {s.submitter?.name ?? "a deleted user"} ({s.submitter?.email ?? "—"}) · <RelativeTime iso={s.createdAt} />
                {s.templateId ? (
                  <>
                    {" "}
                    · <Link to={`/templates/${s.templateId}`}>Open template</Link>
                  </>
                ) : null}
              </p>
              {s.notes ? <blockquote className="muted">{s.notes}</blockquote> : null}
              {s.reason ? <p>Reason: {s.reason}</p> : null}
              {s.status === "pending" ? (
                <Form method="post" className="form">
                  <input type="hidden" name="submissionId" value={s.id} />
                  <div className="field">
                    <label htmlFor={`reason-${s.id}`}>Reason (required to reject)</label>
                    <textarea id={`reason-${s.id}`} name="reason" rows={2} maxLength={2000} />
                  </div>
                  <div className="inline">
                    <button className="btn" type="submit" name="decision" value="approve">
                      Approve
                    </button>
                    <button className="btn btn-danger" type="submit" name="decision" value="reject">
                      Reject
                    </button>
                  </div>
                </Form>
              ) : null}
            </article>
          ))}
        </div>
      )}
    </>
  );
}
