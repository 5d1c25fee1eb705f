import { db } from "~/db.server";
import { logger } from "~/utils/log.server";
import type { Actor } from "../actor";
import { AppError, type ErrorDetail } from "../errors";
import { emit } from "../events/events.server";
import { projectAccess } from "../projects/access.server";
import { type ExportFormat, exportFilename } from "./document";
import { type ExportTarget, gateExport } from "./export-approval.server";
import { BULK_MAX_PROJECTS, type BulkExportInput, type BulkFormat } from "./export.schema";
import { assertFormatEnabled, FORMAT_LABELS, recordExportFailure, renderFailure } from "./export.server";
import { renderExport } from "./files.server";
import { prepareDocument } from "./prepare.server";
import { projectSource } from "./source.server";
import { namer, STORED_FORMATS, zipWriter } from "./zip.server";
import { plural } from "~/utils/plural";

/**
 * Several PRDs as one zip, streamed while it is built: one project is
 * loaded and rendered at a time, its files are compressed into the archive
 * and handed to the reader before the next project starts, so memory stays
 * bounded by the largest single project. Everything that can refuse the
 * request (count, flags, access, approvals) is checked before the first byte.
 */

class FirstProjectFailed {
  constructor(
    readonly format: ExportFormat | BulkFormat,
    readonly error: unknown,
  ) {}
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 300);

export interface BulkExport {
  filename: string;
  stream: ReadableStream<Uint8Array>;
  projectCount: number;
}

const FILES: Record<BulkFormat, ExportFormat[]> = { pdf: ["pdf"], html: ["html"], markdown: ["markdown"], all: ["pdf", "html", "markdown"] };

/** The projects, deduplicated, each readable by the caller: else 404 for the whole request, naming every missing id. */
async function readableTargets(actor: Actor, ids: string[]): Promise<ExportTarget[]> {
  const targets: ExportTarget[] = [];
  const missing: ErrorDetail[] = [];
  const seen = new Set<string>();
  for (const [i, id] of ids.entries()) {
    if (seen.has(id)) continue;
    seen.add(id);
    try {
      targets.push({ id, label: (await projectAccess(actor, id)).project.name });
    } catch (error) {
      if (!(error instanceof AppError) || error.status !== 404) throw error;
      missing.push({ path: `projectIds.${i}`, message: `Project ${id} not found` });
    }
  }
  if (missing.length) {
    throw new AppError("NOT_FOUND", 404, missing.length === 1 ? "Project not found" : `${missing.length} of the projects were not found`, { details: missing });
  }
  return targets;
}

export async function bulkExport(actor: Actor, input: BulkExportInput): Promise<BulkExport> {
  if (input.projectIds.length > BULK_MAX_PROJECTS) {
    throw new AppError("TOO_MANY_PROJECTS", 400, `A bulk export takes at most ${BULK_MAX_PROJECTS} projects; ${input.projectIds.length} were sent`, {
      details: [{ path: "projectIds", message: `Choose at most ${BULK_MAX_PROJECTS} projects` }],
      extra: { max: BULK_MAX_PROJECTS },
    });
  }
  const formats = FILES[input.format];
  for (const f of formats) await assertFormatEnabled(actor, f);
  const targets = await readableTargets(actor, input.projectIds);
  const grants = await gateExport(actor, targets, input.format);

  const unique = namer();
  const manifest: string[] = [];
  const failures: { projectId: string; label: string; what: string; error: string }[] = [];
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  let bytes = 0;
  let next = 0;
  let done = false;
  let cancelled = false;
  let running: Promise<void> | null = null;
  /** Set once the first project is in: from then on an error can only end the stream. */
  let started = false;

  const zip = zipWriter(
    (chunk) => {
      bytes += chunk.byteLength;
      if (!cancelled) controller.enqueue(chunk);
    },
    (error) => controller.error(error),
  );
  const addFile = zip.add;

  /** Loads, renders and adds one project. The first project's failure fails the request; later ones are listed in README.txt. */
  const addProject = async (t: ExportTarget, first: boolean) => {
    const names: string[] = [];
    const fail = async (format: ExportFormat | BulkFormat, error: unknown) => {
      if (first) throw new FirstProjectFailed(format, error);
      logger.warn(`[exports] bulk: ${format} of a project failed`, { requestId: actor.requestId, projectId: t.id, error });
      failures.push({ projectId: t.id, label: t.label, what: FORMAT_LABELS[format as ExportFormat] ?? format, error: errorText(error) });
      // Its approval (if any) is given back, so this project can be exported again.
      const grant = grants.get(t.id);
      await recordExportFailure(actor, { projectId: t.id, format, error, bulk: true, grants: grant ? [grant] : [] });
      grants.delete(t.id);
    };
    let doc: Awaited<ReturnType<typeof prepareDocument>>;
    try {
      doc = await prepareDocument({ ...(await projectSource(db, actor.org.id, t.id)), viewer: actor });
    } catch (error) {
      await fail(input.format, error);
      manifest.push(`- ${t.label}: no files (see below)`);
      return;
    }
    const folder = input.format === "all" ? `${unique(exportFilename(doc.title, "markdown").slice(0, -3))}/` : "";
    for (const format of formats) {
      try {
        const file = await renderExport(doc, format);
        const name = folder ? `${folder}${file.filename}` : unique(file.filename);
        await addFile(name, file.bytes, STORED_FORMATS.has(format));
        names.push(name);
      } catch (error) {
        await fail(format, error);
      }
    }
    manifest.push(`- ${doc.title}: ${names.join(", ") || "no files (see below)"}`);
  };

  const finish = async () => {
    const lines = [
      "PRD Studio export",
      `Exported ${new Date().toISOString()} by ${actor.user.name}`,
      `Format: ${input.format}`,
      "",
      `${plural(targets.length, "project")}:`,
      ...manifest,
      ...(failures.length ? ["", "Could not be exported:", ...failures.map((f) => `- ${f.label} (${f.what}): ${f.error}`)] : []),
      "",
    ];
    await addFile("README.txt", new TextEncoder().encode(lines.join("\n")), false);
    zip.end();
    await db.transaction().execute((trx) =>
      emit(trx, {
        orgId: actor.org.id,
        name: "export.completed",
        actorId: actor.user.id,
        data: {
          projectIds: targets.map((t) => t.id),
          format: input.format,
          bytes,
          failedProjectIds: [...new Set(failures.map((f) => f.projectId))],
          delivery: "download",
          bulk: true,
        },
      }),
    );
    if (!cancelled) controller.close();
  };

  const step = async () => {
    if (cancelled || done) return;
    if (next < targets.length) return addProject(targets[next]!, next++ === 0);
    done = true;
    return finish();
  };
  /** One step at a time: the reader's pull and the first step share the promise. */
  const advance = () =>
    (running ??= step()
      .catch((error) => {
        if (!started) throw error;
        logger.warn("[exports] bulk export stopped", { requestId: actor.requestId, error });
        if (!cancelled) controller.error(error);
      })
      .finally(() => {
        running = null;
      }));

  const stream = new ReadableStream<Uint8Array>(
    {
      start(c) {
        controller = c;
      },
      pull: () => advance(),
      cancel() {
        cancelled = true;
      },
    },
    { highWaterMark: 1 },
  );

  // The first project before answering: a renderer that cannot work at all is a 500, not a broken zip.
  try {
    await advance();
  } catch (error) {
    cancelled = true;
    const failed = error instanceof FirstProjectFailed ? error : new FirstProjectFailed(input.format, error);
    await recordExportFailure(actor, { projectId: targets[0]!.id, format: failed.format, error: failed.error, grants: [...grants.values()], bulk: true });
    throw renderFailure(failed.format, failed.error, actor.requestId);
  }
  started = true;
  const day = new Date().toISOString().slice(0, 10);
  return { filename: `prd-export-${day}.zip`, stream, projectCount: targets.length };
}
