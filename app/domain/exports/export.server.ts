import { db } from "~/db.server";
import { logger } from "~/utils/log.server";
import type { Actor } from "../actor";
import { activeWorkflow } from "../approvals/requests.server";
import { auditActor, writeAudit } from "../audit/audit.server";
import { AppError } from "../errors";
import { emit } from "../events/events.server";
import { assertFeatureEnabled, isFeatureEnabled } from "../flags/flags.server";
import type { ExportFile, ExportFormat } from "./document";
import { gateExport, releaseGrants } from "./export-approval.server";
import type { SingleExportInput } from "./export.schema";
import { renderExport } from "./files.server";
import { prepareDocument } from "./prepare.server";
import { projectSourceFor } from "./source.server";

/** Downloading one PRD as a file: the one domain function behind /api/export/* and the project page's Export menu. */

export const FORMAT_LABELS: Record<ExportFormat, string> = { pdf: "PDF", docx: "Word (DOCX)", html: "HTML", markdown: "Markdown" };

/** The feature flag a format needs (docs/exports.md: export_pdf, export_docx; HTML and Markdown have none). */
export const FORMAT_FLAGS: Partial<Record<ExportFormat, string>> = { pdf: "export_pdf", docx: "export_docx" };

/** 403 FEATURE_DISABLED when the format's flag is off for the caller. */
export async function assertFormatEnabled(actor: Actor, format: ExportFormat) {
  const flag = FORMAT_FLAGS[format];
  if (flag) await assertFeatureEnabled(actor, flag);
}

/** The Export menu: each format, whether the caller may use it and why not; and whether exports are held for approval. */
export async function exportMenu(actor: Actor) {
  const order: ExportFormat[] = ["pdf", "docx", "html", "markdown"];
  const formats = await Promise.all(
    order.map(async (format) => {
      const flag = FORMAT_FLAGS[format];
      const enabled = !flag || (await isFeatureEnabled(actor, flag));
      return { format, label: FORMAT_LABELS[format], enabled, reason: enabled ? null : `${FORMAT_LABELS[format]} export is turned off for your organization.` };
    }),
  );
  const needsApproval = !!(await activeWorkflow(db, actor.org, "prd_export"));
  return { formats, needsApproval };
}
export type ExportMenu = Awaited<ReturnType<typeof exportMenu>>;

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 500);

/** A renderer failure as the caller sees it: AppErrors pass through, anything else is a 500 without internals. */
export function renderFailure(format: string, error: unknown, requestId?: string) {
  if (error instanceof AppError) return error;
  logger.warn(`[exports] ${format} rendering failed`, { requestId, error });
  const what = FORMAT_LABELS[format as ExportFormat] ? `The ${FORMAT_LABELS[format as ExportFormat]} file` : "The export";
  return new AppError("INTERNAL_ERROR", 500, `${what} could not be generated. Try again, or export in another format.`);
}

/** Records export.failed (and gives approval grants back) in one transaction. */
export async function recordExportFailure(actor: Actor, data: { projectId: string | null; format: string; error: unknown; grants?: string[]; bulk?: boolean }) {
  await db.transaction().execute(async (trx) => {
    await releaseGrants(trx, data.grants ?? []);
    await emit(trx, {
      orgId: actor.org.id,
      name: "export.failed",
      actorId: actor.user.id,
      data: { projectId: data.projectId, format: data.format, error: errorText(data.error), delivery: "download", ...(data.bulk ? { bulk: true } : {}) },
    });
  });
}

/**
 * One PRD as a `format` file. From `projectId` (a project the caller can
 * read; 404 otherwise), from `content` (markdown, not tied to a project:
 * never held for approval), or both (`content` exported as that project's
 * text: read-checked, its images embedded, held like the project). Checks
 * the format's flag (403), then the prd_export approval gate (202),
 * renders, and records export.completed (with an audit entry for
 * projects) or export.failed (500).
 */
export async function exportPrd(actor: Actor, format: ExportFormat, input: SingleExportInput): Promise<ExportFile> {
  await assertFormatEnabled(actor, format);
  const project = input.projectId ? await projectSourceFor(actor, input.projectId) : null;
  const source = project
    ? input.content === undefined
      ? project
      : // A draft of the project: its status, not the saved version's number.
        { ...project, markdown: input.content, subtitle: project.subtitle.split(" · ")[0] ?? "" }
    : { projectId: null, orgId: actor.org.id, title: "Untitled PRD", subtitle: null, markdown: input.content ?? "" };
  const title = input.title ?? source.title;
  const grants = source.projectId ? [...(await gateExport(actor, [{ id: source.projectId, label: source.title }], format)).values()] : [];

  let file: ExportFile;
  try {
    file = await renderExport(await prepareDocument({ ...source, title, viewer: actor }), format);
  } catch (error) {
    await recordExportFailure(actor, { projectId: source.projectId, format, error, grants });
    throw renderFailure(format, error, actor.requestId);
  }

  await db.transaction().execute(async (trx) => {
    const bytes = file.bytes.byteLength;
    await emit(trx, {
      orgId: actor.org.id,
      name: "export.completed",
      actorId: actor.user.id,
      data: { projectId: source.projectId, format, bytes, filename: file.filename, delivery: "download" },
    });
    if (source.projectId) {
      await writeAudit(trx, {
        ...auditActor(actor),
        action: "project.exported",
        category: "project",
        targetType: "project",
        targetId: source.projectId,
        metadata: { format, bytes, approvalRequestIds: grants },
      });
    }
  });
  return file;
}
