import type { Selectable } from "kysely";
import type { ScheduledExportRunsTable } from "#db/schema";
import { appUrl } from "~/config.server";
import { db } from "~/db.server";
import { decrypt } from "~/utils/crypto.server";
import { nowIso } from "~/utils/ids.server";
import { AppError } from "../errors";
import type { ExportFile } from "../exports/document";
import { renderExport } from "../exports/files.server";
import { prepareDocument } from "../exports/prepare.server";
import { projectSource } from "../exports/source.server";
import { queueEmail, sendQueuedEmail } from "../mail/mail.server";
import { post, sign } from "../webhooks/delivery.server";
import { type Changelog, changelog } from "./changelog";
import { type DigestEntry, entryLine, renderDigest } from "./digest.server";
import type { ScheduleRow } from "./present.server";
import { plural } from "~/utils/plural";

/**
 * One delivery attempt of a scheduled export run: the project's PRD as a
 * file of the schedule's format — or, for a schedule without a project, the
 * digest zip of every project its creator can read (./digest.server) — by
 * e-mail (attached, one message per recipient) or by a signed webhook POST.
 * Never throws: the outcome says whether a later attempt may succeed.
 */

export type RunRow = Selectable<ScheduledExportRunsTable>;

export type Outcome = { ok: true } | { ok: false; error: string; retry: boolean };

export const WEBHOOK_EVENT = "export.scheduled";
export const SIGNATURE_HEADER = "x-webhook-signature";
export const WEBHOOK_TIMEOUT_MS = 10_000;

interface Rendered {
  file: ExportFile;
  /** The project's name; for a digest, the organization's. */
  projectName: string;
  /** What the next changelog compares with (a digest: JSON of every project's text). */
  markdown: string;
  changes: Changelog | null;
  generatedAt: string;
  digest?: { entries: DigestEntry[]; omitted: number; firstDelivery: boolean };
}

async function render(schedule: ScheduleRow): Promise<Rendered> {
  if (!schedule.projectId) {
    const now = new Date();
    const d = await renderDigest(schedule, now);
    const digest = { entries: d.entries, omitted: d.omitted, firstDelivery: d.firstDelivery };
    return { file: d.file, projectName: d.title, markdown: d.snapshot, changes: null, generatedAt: nowIso(now), digest };
  }
  const source = await projectSource(db, schedule.orgId, schedule.projectId ?? "");
  const doc = await prepareDocument(source);
  const file = await renderExport(doc, schedule.format);
  const changes = schedule.includeChangelog === 1 ? changelog(schedule.lastDeliveredContent, source.markdown) : null;
  return { file, projectName: source.title, markdown: source.markdown, changes, generatedAt: nowIso(doc.generatedAt) };
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A digest's paragraphs: how many PRDs are attached, then a line per project (at most 25 here; all in README.txt). */
function digestParagraphs(orgName: string, digest: NonNullable<Rendered["digest"]>) {
  const attached = digest.entries.filter((e) => e.filename).length;
  const lines = digest.entries.slice(0, 25).map((e) => entryLine(e, digest.firstDelivery));
  const more = digest.entries.length - lines.length + digest.omitted;
  return [
    `The PRDs of ${orgName}: ${attached} of ${plural(digest.entries.length, "project")} attached as one zip.`,
    ...(lines.length ? [lines.join("\n")] : ["No projects to report."]),
    ...(more > 0 ? [`And ${more} more (listed in README.txt in the zip).`] : []),
  ];
}

/** Subject and body of the e-mail: the custom message, the changelog, what is attached and where to manage it. */
export function emailContent(schedule: ScheduleRow, r: Pick<Rendered, "file" | "projectName" | "changes" | "digest">) {
  const base = appUrl();
  const digest = r.digest;
  const paragraphs = [
    ...(digest
      ? [...(schedule.customMessage ? [schedule.customMessage] : []), ...digestParagraphs(r.projectName, digest)]
      : [schedule.customMessage ?? `The latest PRD of “${r.projectName}” is attached.`, ...(r.changes ? [r.changes.summary] : [])]),
    `Attached: ${r.file.filename}`,
    digest ? `Open the projects: ${base}/projects` : `Open the project: ${base}/projects/${schedule.projectId}`,
    `You receive this because of a scheduled export in PRD Studio. Manage it: ${base}/exports/schedules/${schedule.id}`,
  ];
  const html = `<!doctype html><html><body style="font-family:system-ui,sans-serif;color:#1f2937;max-width:560px;margin:auto;padding:24px">
${paragraphs.map((p) => `<p style="white-space:pre-wrap">${escapeHtml(p)}</p>`).join("\n")}
</body></html>`;
  const subject = digest
    ? `${schedule.scheduleType === "weekly" ? "Weekly PRD digest" : "PRD digest"}: ${r.projectName}`
    : `Scheduled export: ${r.projectName}`;
  return { subject: schedule.customSubject ?? subject, text: paragraphs.join("\n\n"), html };
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** The project is gone or outside the organization, or a digest's creator left: no retry will help. */
const permanent = (error: unknown) => error instanceof AppError && error.status === 404;
const permanentMessage = (schedule: ScheduleRow, error: unknown) => (schedule.projectId ? "The project no longer exists" : message(error));

async function deliverEmail(schedule: ScheduleRow, run: RunRow): Promise<Outcome> {
  let emailIds: string[] = run.emailIds ? JSON.parse(run.emailIds) : [];
  if (!run.emailIds) {
    // First attempt: render and file one message per recipient; retries send these same messages.
    const r = await render(schedule);
    const content = emailContent(schedule, r);
    const recipients = JSON.parse(schedule.recipients) as string[];
    emailIds = await db.transaction().execute(async (trx) => {
      const ids: string[] = [];
      for (const to of recipients) {
        ids.push(
          await queueEmail(
            trx,
            {
              to,
              ...content,
              kind: "scheduled_export",
              orgId: schedule.orgId,
              attachments: [{ filename: r.file.filename, contentType: r.file.contentType, content: r.file.bytes }],
            },
            { send: "caller" },
          ),
        );
      }
      await trx
        .updateTable("scheduledExportRuns")
        .set({ emailIds: JSON.stringify(ids), snapshot: r.markdown })
        .where("id", "=", run.id)
        .execute();
      return ids;
    });
  }
  const errors: string[] = [];
  for (const id of emailIds) {
    try {
      await sendQueuedEmail(id);
    } catch (error) {
      const to = (await db.selectFrom("emails").select("toAddress").where("id", "=", id).executeTakeFirst())?.toAddress ?? id;
      errors.push(`${to}: ${message(error)}`);
    }
  }
  return errors.length ? { ok: false, error: errors.join("; "), retry: true } : { ok: true };
}

async function deliverWebhook(schedule: ScheduleRow, run: RunRow, logId: string): Promise<Outcome> {
  if (!schedule.webhookUrl) return { ok: false, error: "No webhook URL", retry: false };
  const r = await render(schedule);
  await db.updateTable("scheduledExportRuns").set({ snapshot: r.markdown }).where("id", "=", run.id).execute();
  const body = JSON.stringify({
    event: WEBHOOK_EVENT,
    scheduleId: schedule.id,
    projectId: schedule.projectId,
    projectName: r.digest ? null : r.projectName,
    ...(r.digest
      ? {
          scope: "organization",
          organizationName: r.projectName,
          projects: r.digest.entries.map((e) => ({
            projectId: e.projectId,
            projectName: e.projectName,
            status: e.status,
            updatedAt: e.updatedAt,
            filename: e.filename,
            note: e.note,
            ...(e.changes ? { changelog: e.changes } : {}),
          })),
          omittedProjects: r.digest.omitted,
        }
      : { scope: "project" }),
    format: schedule.format,
    filename: r.file.filename,
    contentType: r.file.contentType,
    content: Buffer.from(r.file.bytes).toString("base64"),
    ...(schedule.customMessage ? { message: schedule.customMessage } : {}),
    ...(r.changes ? { changelog: r.changes } : {}),
    generatedAt: r.generatedAt,
  });
  const secret = schedule.webhookSecret ? (decrypt(schedule.webhookSecret) ?? "") : "";
  const result = await post(
    schedule.webhookUrl,
    {
      "Content-Type": "application/json",
      "User-Agent": "PRD-Studio-Webhooks/1",
      [SIGNATURE_HEADER]: sign(secret, body),
      "x-webhook-event": WEBHOOK_EVENT,
      // The delivery log entry: the same on every retry of this run.
      "x-webhook-id": logId,
      "x-webhook-timestamp": r.generatedAt,
    },
    body,
    WEBHOOK_TIMEOUT_MS,
  );
  if (result.error === null) return { ok: true };
  return { ok: false, error: result.error, retry: !result.error.startsWith("Refused:") };
}

/** One attempt at delivering `run` of `schedule`. */
export async function deliverRun(schedule: ScheduleRow, run: RunRow, logId: string): Promise<Outcome> {
  try {
    return schedule.deliveryMethod === "email" ? await deliverEmail(schedule, run) : await deliverWebhook(schedule, run, logId);
  } catch (error) {
    return { ok: false, error: permanent(error) ? permanentMessage(schedule, error) : message(error), retry: !permanent(error) };
  }
}
