import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { bulkExport } from "~/domain/exports/bulk.server";
import { bulkExportSchema } from "~/domain/exports/export.schema";
import { AppError } from "~/domain/errors";
import { assertSameOrigin } from "~/http/csrf.server";
import { zipStreamResponse } from "~/http/export-download.server";
import { redirectWithNotice } from "~/http/ui/flash.server";
import { errorResponse } from "~/http/api/respond.server";
import { requireUiActor } from "~/http/ui/ui.server";

/**
 * The /exports page posts here: the zip streamed as an attachment. Without
 * JavaScript a refusal redirects back to /exports with the message (flash)
 * and the selection kept in the URL; the page's script asks for JSON
 * (`Accept: application/json`) and gets the API's error envelope instead.
 */

export async function loader() {
  return redirect("/exports");
}

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  try {
    assertSameOrigin(request);
  } catch (error) {
    if (error instanceof AppError) throw new Response(error.message, { status: error.status });
    throw error;
  }
  const form = await request.formData();
  const projectIds = form.getAll("projectIds").filter((v): v is string => typeof v === "string");
  const format = typeof form.get("format") === "string" ? (form.get("format") as string) : "";
  try {
    const input = bulkExportSchema.parse({ projectIds, format: format || undefined });
    return zipStreamResponse(await bulkExport(actor, input));
  } catch (error) {
    if ((request.headers.get("Accept") ?? "").includes("application/json")) return errorResponse(error);
    const held = error instanceof AppError && error.code === "APPROVAL_REQUIRED";
    const message = held
      ? "Sent for approval: exports need an approver's OK for each project. You will be notified when they are approved; then download the zip again."
      : messageOf(error);
    const params = new URLSearchParams({ result: held ? "held" : "error" });
    if (format) params.set("format", format);
    for (const id of projectIds.slice(0, 100)) params.append("selected", id);
    return redirectWithNotice(`/exports?${params}`, message);
  }
}

function messageOf(error: unknown): string {
  if (error instanceof AppError) return error.message;
  if (error && typeof error === "object" && "issues" in error) {
    const issue = (error as { issues: { path: PropertyKey[]; message: string }[] }).issues[0];
    if (issue?.path[0] === "format") return "Choose a format: PDF, HTML, Markdown or all three.";
    if (issue?.path[0] === "projectIds") return "Choose at least one project.";
    return issue?.message ?? "Check the form and try again.";
  }
  throw error;
}
