import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation, useSearchParams } from "@remix-run/react";
import { DiffView } from "~/components/diff-view";
import { FormAlert } from "~/components/forms";
import { DateTime } from "~/components/project-badges";
import { TableScroll } from "~/components/table-scroll";
import { createVersionSchema } from "~/domain/prd/prd.schema";
import { createVersion, getVersion, listVersions, restoreVersion } from "~/domain/prd/prd.server";
import { getProject } from "~/domain/projects/projects.server";
import { formFailure, formValues, orPageError, requireUiActor } from "~/http/ui/ui.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const project = await orPageError(getProject(actor, params.projectId!));
  const versions = await listVersions(actor, project.id);
  const url = new URL(request.url);
  const to = url.searchParams.get("to") ?? versions[0]?.id;
  const from = url.searchParams.get("from") ?? versions[1]?.id;
  const comparison = to && from && to !== from ? await orPageError(getVersion(actor, project.id, to, from)) : null;
  return { versions, comparison, from, to, canEdit: project.permissions.canEdit };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  try {
    // The Restore buttons post the version id (no JavaScript needed).
    if (values.versionId) {
      const { prd } = await restoreVersion(actor, params.projectId!, values.versionId ?? "");
      return { message: `Restored. The PRD is now version ${prd.versionNumber}.` };
    }
    const version = await createVersion(actor, params.projectId!, createVersionSchema.parse(values));
    return { message: `Saved snapshot “${version.label}”.` };
  } catch (error) {
    return formFailure(error, values);
  }
}

export default function Versions() {
  const { versions, comparison, from, to, canEdit } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const [params] = useSearchParams();
  if (versions.length === 0) {
    return (
      <div className="card empty-state">
        <h2>No versions yet</h2>
        <p>Every save of the PRD records a version here, so you can compare and restore.</p>
      </div>
    );
  }
  return (
    <div className="stack">
      {result && "message" in result ? (
        <div className="alert alert-success" role="status">
          <p>{result.message}</p>
        </div>
      ) : null}
      <FormAlert state={result && "formError" in result ? result : null} />
      <section className="card" aria-labelledby="versions-heading">
        <div className="card-header">
          <div>
            <h2 id="versions-heading">History</h2>
            <p>Pick two versions to compare.</p>
          </div>
          {canEdit ? (
            <Form method="post" className="inline">
              <input type="hidden" name="intent" value="snapshot" />
              <label htmlFor="snapshot-label" className="sr-only">
                Snapshot label
              </label>
              <input id="snapshot-label" name="label" placeholder="e.g. Sent to legal" className="input-sm" maxLength={120} />
              <button className="btn btn-secondary btn-sm" type="submit">
                Save snapshot
              </button>
            </Form>
          ) : null}
        </div>
        <Form method="get">
          <TableScroll label="Versions">
            <table className="table">
              <thead>
                <tr>
                  <th scope="col">From</th>
                  <th scope="col">To</th>
                  <th scope="col">Version</th>
                  <th scope="col">By</th>
                  <th scope="col">When</th>
                  <th scope="col">
                    <span className="sr-only">Actions</span>
                  </th>
                </tr>
              </thead>
              <tbody>
                {versions.map((v) => (
                  <tr key={v.id}>
                    <td>
                      <input
                        type="radio"
                        name="from"
                        value={v.id}
                        defaultChecked={v.id === (params.get("from") ?? from)}
                        aria-label={`Compare from version ${v.number}`}
                      />
                    </td>
                    <td>
                      <input
                        type="radio"
                        name="to"
                        value={v.id}
                        defaultChecked={v.id === (params.get("to") ?? to)}
                        aria-label={`Compare to version ${v.number}`}
                      />
                    </td>
                    <td>
                      <strong>v{v.number}</strong> {v.label ? <span className="badge badge-brand">{v.label}</span> : null}{" "}
                      <span className="muted">{v.source}</span>
                    </td>
                    <td>{v.createdBy?.name ?? "—"}</td>
                    <td>
                      <DateTime iso={v.createdAt} />
                    </td>
                    <td>
                      {canEdit && v.id !== versions[0]!.id ? (
                        <button className="btn btn-link" type="submit" formMethod="post" name="versionId" value={v.id} formNoValidate>
                          Restore
                        </button>
                      ) : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </TableScroll>
          <div style={{ marginTop: 12 }}>
            <button className="btn btn-secondary" type="submit">
              {navigation.state === "loading" ? "Comparing…" : "Compare"}
            </button>
          </div>
        </Form>
      </section>
      {comparison?.compare ? (
        <section className="card" aria-labelledby="diff-heading">
          <h2 id="diff-heading">
            v{comparison.compare.from.number} → v{comparison.compare.to.number}{" "}
            <span className="muted" style={{ fontWeight: 400, fontSize: "0.9rem" }}>
              {comparison.compare.added} added, {comparison.compare.removed} removed
            </span>
          </h2>
          <DiffView lines={comparison.compare.lines} />
        </section>
      ) : null}
    </div>
  );
}
