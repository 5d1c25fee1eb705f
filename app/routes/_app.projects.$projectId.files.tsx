import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { Form, useActionData, useLoaderData, useNavigation } from "@remix-run/react";
import { FormAlert } from "~/components/forms";
import { RelativeTime } from "~/components/project-badges";
import { TableScroll } from "~/components/table-scroll";
import { MAX_FILE_BYTES, createFolderSchema, updateFolderSchema, uploadFieldsSchema } from "~/domain/files/files.schema";
import { assertCanUpload, deleteFile, listFiles, uploadFile } from "~/domain/files/files.server";
import { createFolder, deleteFolder, updateFolder } from "~/domain/files/folders.server";
import { getProject } from "~/domain/projects/projects.server";
import { formatBytes } from "~/utils/format";
import { assertSameOrigin } from "~/http/csrf.server";
import { parseMultipart } from "~/http/api/multipart.server";
import { formFailure, formValues, orPageError, requireUiActor } from "~/http/ui/ui.server";

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const project = await orPageError(getProject(actor, params.projectId!));
  const { files, folders } = await listFiles(actor, project.id);
  return { files, folders, canEdit: project.permissions.canEdit, maxBytes: MAX_FILE_BYTES };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const projectId = params.projectId!;
  const isUpload = (request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data");
  if (isUpload) {
    try {
      assertSameOrigin(request);
      await assertCanUpload(actor, projectId);
      const { files, fields } = await parseMultipart(request, { maxFileBytes: MAX_FILE_BYTES, requiredFile: "file" });
      const { folderId } = uploadFieldsSchema.parse({ folderId: fields.folderId || undefined });
      const part = files.file!;
      const file = await uploadFile(actor, projectId, { ...part, folderId });
      return { message: `Uploaded “${file.filename}”.` };
    } catch (error) {
      return formFailure(error, {});
    }
  }
  const values = await formValues(request);
  try {
    if (values.intent === "delete-file") {
      await deleteFile(actor, projectId, values.fileId ?? "");
      return { message: "File deleted." };
    }
    if (values.intent === "update-folder") {
      const folder = await updateFolder(
        actor,
        projectId,
        values.folderId ?? "",
        updateFolderSchema.parse({ name: values.name, parentId: values.parentId === "" ? null : values.parentId }),
      );
      return { message: `Saved folder “${folder.name}”.` };
    }
    if (values.intent === "delete-folder") {
      await deleteFolder(actor, projectId, values.folderId ?? "");
      return { message: "Folder deleted; its files moved to the top level." };
    }
    const folder = await createFolder(actor, projectId, createFolderSchema.parse({ name: values.name, parentId: values.parentId || undefined }));
    return { message: `Created folder “${folder.name}”.` };
  } catch (error) {
    return formFailure(error, values);
  }
}

export default function Files() {
  const { files, folders, canEdit, maxBytes } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const navigation = useNavigation();
  const uploading = navigation.state === "submitting" && navigation.formEncType === "multipart/form-data";
  const groups = [{ id: null as string | null, name: "Top level" }, ...folders.map((f) => ({ id: f.id as string | null, name: f.name }))].map((g) => ({
    ...g,
    files: files.filter((f) => f.folderId === g.id),
  }));
  return (
    <div className="split-3">
      <div className="stack">
        {result && "message" in result ? (
          <div className="alert alert-success" role="status">
            <p>{result.message}</p>
          </div>
        ) : null}
        <FormAlert state={result && "formError" in result ? result : null} />
        {files.length === 0 && folders.length === 0 ? (
          <div className="card empty-state">
            <h2>No files yet</h2>
            <p>Attach research, mock-ups, spreadsheets or transcripts that back up the PRD (up to {formatBytes(maxBytes)} each).</p>
          </div>
        ) : (
          groups.map((g) => (
            <section className="card" key={g.id ?? "root"} aria-label={g.name}>
              <div className="card-header">
                <h2>{g.id ? `📁 ${g.name}` : g.name}</h2>
                {canEdit && g.id ? (
                  <div className="inline">
                    <details className="reply-form">
                      <summary>Rename or move</summary>
                      <Form method="post" className="inline" style={{ marginTop: 6 }}>
                        <input type="hidden" name="intent" value="update-folder" />
                        <input type="hidden" name="folderId" value={g.id} />
                        <label htmlFor={`rename-${g.id}`} className="sr-only">
                          Folder name
                        </label>
                        <input id={`rename-${g.id}`} name="name" defaultValue={g.name} className="input-sm" required maxLength={100} />
                        <label htmlFor={`parent-${g.id}`} className="sr-only">
                          Parent folder
                        </label>
                        <select id={`parent-${g.id}`} name="parentId" defaultValue={folders.find((f) => f.id === g.id)?.parentId ?? ""} className="input-sm">
                          <option value="">Top level</option>
                          {folders
                            .filter((f) => f.id !== g.id)
                            .map((f) => (
                              <option key={f.id} value={f.id}>
                                in {f.name}
                              </option>
                            ))}
                        </select>
                        <button className="btn btn-secondary btn-sm" type="submit">
                          Save
                        </button>
                      </Form>
                    </details>
                    <Form method="post">
                      <input type="hidden" name="intent" value="delete-folder" />
                      <input type="hidden" name="folderId" value={g.id} />
                      <button className="btn btn-link" type="submit" aria-label={`Delete folder ${g.name}`}>
                        Delete folder
                      </button>
                    </Form>
                  </div>
                ) : null}
              </div>
              {g.files.length === 0 ? (
                <p className="muted">Empty.</p>
              ) : (
                <TableScroll label={`Files in ${g.name}`}>
                  <table className="table">
                    <thead>
                      <tr>
                        <th scope="col">Name</th>
                        <th scope="col">Size</th>
                        <th scope="col">Uploaded</th>
                        <th scope="col">
                          <span className="sr-only">Actions</span>
                        </th>
                      </tr>
                    </thead>
                    <tbody>
                      {g.files.map((f) => (
                        <tr key={f.id}>
                          <td>
                            <a href={f.downloadUrl} download>
                              {f.filename}
                            </a>
                          </td>
                          <td>{formatBytes(f.size)}</td>
                          <td>
                            {f.uploadedBy?.name ?? "—"}, <RelativeTime iso={f.createdAt} />
                          </td>
                          <td>
                            {canEdit ? (
                              <Form method="post">
                                <input type="hidden" name="intent" value="delete-file" />
                                <input type="hidden" name="fileId" value={f.id} />
                                <button className="btn btn-link" type="submit" aria-label={`Delete ${f.filename}`}>
                                  Delete
                                </button>
                              </Form>
                            ) : null}
                          </td>
                        </tr>
                      ))}
                    </tbody>
                  </table>
                </TableScroll>
              )}
            </section>
          ))
        )}
      </div>
      {canEdit ? (
        <aside className="stack">
          <section className="card" aria-labelledby="upload-heading">
            <h2 id="upload-heading">Upload a file</h2>
            <Form method="post" encType="multipart/form-data" className="form">
              <div className="field">
                <label htmlFor="upload-file">File</label>
                <input id="upload-file" name="file" type="file" required />
                <span className="hint">Up to {formatBytes(maxBytes)}.</span>
              </div>
              {folders.length ? (
                <div className="field">
                  <label htmlFor="upload-folder">Folder</label>
                  <select id="upload-folder" name="folderId" defaultValue="">
                    <option value="">Top level</option>
                    {folders.map((f) => (
                      <option key={f.id} value={f.id}>
                        {f.name}
                      </option>
                    ))}
                  </select>
                </div>
              ) : null}
              <button className="btn" type="submit" disabled={uploading}>
                {uploading ? "Uploading…" : "Upload"}
              </button>
            </Form>
          </section>
          <section className="card" aria-labelledby="folder-heading">
            <h2 id="folder-heading">New folder</h2>
            <Form method="post" className="form">
              <input type="hidden" name="intent" value="create-folder" />
              <div className="field">
                <label htmlFor="folder-name">Name</label>
                <input id="folder-name" name="name" required maxLength={100} />
              </div>
              <button className="btn btn-secondary" type="submit">
                Create folder
              </button>
            </Form>
          </section>
        </aside>
      ) : null}
    </div>
  );
}
