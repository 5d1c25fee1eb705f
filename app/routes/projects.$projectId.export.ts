import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { EXPORT_FORMATS, type ExportFormat } from "~/domain/exports/document";
import { exportPrd } from "~/domain/exports/export.server";
import { AppError } from "~/domain/errors";
import { exportFileResponse } from "~/http/export-download.server";
import { redirectWithNotice } from "~/http/ui/flash.server";
import { formValues, requireUiActor } from "~/http/ui/ui.server";

/**
 * The project page's Export menu posts here (a plain form, so it works
 * without JavaScript): the answer is the file as an attachment, or a
 * redirect back to the project with a message (sent for approval, format
 * turned off, rendering failed).
 */

export async function loader({ params }: LoaderFunctionArgs) {
  return redirect(`/projects/${params.projectId}`);
}

const back = async (projectId: string, message: string, tone: "info" | "error" = "error") => redirectWithNotice(`/projects/${projectId}`, message, tone);

export async function action({ request, context, params }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  const projectId = params.projectId!;
  const format = (EXPORT_FORMATS as readonly string[]).includes(values.format ?? "") ? (values.format as ExportFormat) : null;
  if (!format) return back(projectId, "Choose a format to export: PDF, Word (DOCX), HTML or Markdown.");
  try {
    return exportFileResponse(await exportPrd(actor, format, { projectId }));
  } catch (error) {
    if (!(error instanceof AppError)) throw error;
    if (error.status === 404) throw new Response("Project not found", { status: 404 });
    if (error.code === "APPROVAL_REQUIRED") {
      return back(
        projectId,
        "Sent for approval: exports of this project need an approver's OK. You will be notified when it is approved; then export again to download the file.",
        "info",
      );
    }
    return back(projectId, error.message);
  }
}
