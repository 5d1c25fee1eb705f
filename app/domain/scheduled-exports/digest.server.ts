import { db } from "~/db.server";
import { logger } from "~/utils/log.server";
import { nowIso } from "~/utils/ids.server";
import { AppError } from "../errors";
import type { ExportFile } from "../exports/document";
import { renderExport } from "../exports/files.server";
import { prepareDocument } from "../exports/prepare.server";
import { projectSource } from "../exports/source.server";
import { namer, STORED_FORMATS, zipBytes } from "../exports/zip.server";
import { readableProjects } from "../projects/access.server";
import { type ProjectStatus, STATUS_LABELS } from "../projects/projects.schema";
import { type Changelog, changelog } from "./changelog";
import type { ScheduleRow } from "./present.server";
import { zonedParts } from "./schedule";
import { plural } from "~/utils/plural";

/**
 * A scheduled export without a project: a digest of every project its
 * creator can read at the time of the run (readableProjects with their
 * current role; another organization's projects never), archived ones
 * left out, most recently updated first. One zip: each PRD in the
 * schedule's format (the same renderer as every export) and a README.txt
 * listing the projects with their status and, with includeChangelog, what
 * changed since the last delivery. Bounded: 100 projects, 15 MB of files.
 */

export const DIGEST_MAX_PROJECTS = 100;
/** Files stop being added past this (an e-mail attachment must stay deliverable). */
export const DIGEST_MAX_BYTES = 15 * 1024 * 1024;

export interface DigestEntry {
  projectId: string;
  projectName: string;
  status: string;
  updatedAt: string;
  /** The file in the zip, or null (see note). */
  filename: string | null;
  /** Why there is no file: no PRD yet, size limit, rendering failed. */
  note: string | null;
  changes: Changelog | null;
}

export interface RenderedDigest {
  file: ExportFile;
  /** The organization's name. */
  title: string;
  entries: DigestEntry[];
  /** Readable projects beyond DIGEST_MAX_PROJECTS, not included. */
  omitted: number;
  /** JSON {projects: {id: markdown} | null}: what the next changelog compares with (null without includeChangelog). */
  snapshot: string;
  /** No earlier digest delivered: nothing to compare with. */
  firstDelivery: boolean;
}

/** The creator, with their role now: a digest never shows more than they may read. 404 (no retry) when they left. */
async function creatorAsReader(schedule: ScheduleRow) {
  const gone = () =>
    new AppError("NOT_FOUND", 404, "The person who created this digest is no longer a member of the organization; ask an admin to create it again");
  if (!schedule.createdById) throw gone();
  const member = await db
    .selectFrom("memberships as m")
    .innerJoin("users as u", "u.id", "m.userId")
    .select(["m.role", "u.name"])
    .where("m.orgId", "=", schedule.orgId)
    .where("m.userId", "=", schedule.createdById)
    .executeTakeFirst();
  if (!member) throw gone();
  return { reader: { user: { id: schedule.createdById }, org: { id: schedule.orgId }, role: member.role }, name: member.name };
}

function previousTexts(stored: string | null): Record<string, string> | null {
  if (!stored) return null;
  try {
    const parsed = JSON.parse(stored) as { projects?: unknown };
    return parsed && typeof parsed.projects === "object" && parsed.projects ? (parsed.projects as Record<string, string>) : null;
  } catch {
    return null; // the text of a single project (the schedule named one before)
  }
}

const message = (error: unknown) => (error instanceof Error ? error.message : String(error)).slice(0, 200);

export async function renderDigest(schedule: ScheduleRow, now = new Date()): Promise<RenderedDigest> {
  const { reader, name: creatorName } = await creatorAsReader(schedule);
  const org = await db.selectFrom("organizations").select("name").where("id", "=", schedule.orgId).executeTakeFirstOrThrow();
  const visible = db.selectFrom("projects as p").where(readableProjects(reader)).where("p.status", "!=", "ARCHIVED");
  const [rows, count] = await Promise.all([
    visible.select(["p.id", "p.name", "p.status", "p.updatedAt"]).orderBy("p.updatedAt", "desc").orderBy("p.id").limit(DIGEST_MAX_PROJECTS).execute(),
    visible.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
  ]);
  const previous = previousTexts(schedule.lastDeliveredContent);
  const unique = namer();
  const files: { name: string; data: Uint8Array; stored: boolean }[] = [];
  const snapshot: Record<string, string> = {};
  const entries: DigestEntry[] = [];
  let bytes = 0;
  let failed = 0;
  for (const row of rows) {
    const entry: DigestEntry = {
      projectId: row.id,
      projectName: row.name,
      status: row.status,
      updatedAt: row.updatedAt,
      filename: null,
      note: null,
      changes: null,
    };
    entries.push(entry);
    const source = await projectSource(db, schedule.orgId, row.id);
    if (!source.markdown.trim()) {
      entry.note = "No PRD yet";
      continue;
    }
    if (schedule.includeChangelog === 1) entry.changes = changelog(previous ? (previous[row.id] ?? null) : null, source.markdown);
    if (bytes >= DIGEST_MAX_BYTES) {
      entry.note = "Not attached: the digest reached its size limit";
      if (previous?.[row.id] !== undefined) snapshot[row.id] = previous[row.id]!;
      continue;
    }
    try {
      const file = await renderExport(await prepareDocument(source), schedule.format);
      entry.filename = unique(file.filename);
      files.push({ name: entry.filename, data: file.bytes, stored: STORED_FORMATS.has(schedule.format) });
      bytes += file.bytes.byteLength;
      snapshot[row.id] = source.markdown;
    } catch (error) {
      failed++;
      logger.warn("[scheduled-exports] digest: a project could not be rendered", { scheduleId: schedule.id, projectId: row.id, error });
      entry.note = `Could not be rendered: ${message(error)}`;
      if (previous?.[row.id] !== undefined) snapshot[row.id] = previous[row.id]!;
    }
  }
  // Nothing rendered at all: a renderer problem worth a retry, not an empty digest.
  if (failed > 0 && files.length === 0) throw new Error(`None of the ${failed} PRDs could be rendered`);
  const omitted = Math.max(0, Number(count.n) - rows.length);
  const readme = readmeText({ orgName: org.name, creatorName, format: schedule.format, now, entries, omitted, firstDelivery: previous === null });
  const zip = await zipBytes([...files, { name: "README.txt", data: Buffer.from(readme, "utf8"), stored: false }]);
  const d = zonedParts(now, schedule.timezone);
  const day = `${d.year}-${String(d.month).padStart(2, "0")}-${String(d.day).padStart(2, "0")}`;
  return {
    file: { bytes: zip, contentType: "application/zip", filename: `prd-digest-${day}.zip` },
    title: org.name,
    entries,
    omitted,
    // Every PRD's text is kept only when a changelog needs it (a digest may hold a hundred PRDs).
    snapshot: JSON.stringify({ projects: schedule.includeChangelog === 1 ? snapshot : null }),
    firstDelivery: previous === null,
  };
}

/** One line per project: name, status, date, and its file or why it has none, and its changes. */
export function entryLine(e: DigestEntry, firstDelivery: boolean) {
  const status = STATUS_LABELS[e.status as ProjectStatus] ?? e.status;
  const what = e.filename ?? e.note ?? "";
  const changes = !e.changes ? "" : e.changes.firstDelivery ? (firstDelivery ? "" : " New in this digest.") : ` ${e.changes.summary}`;
  return `- ${e.projectName} (${status}, updated ${e.updatedAt.slice(0, 10)}): ${what}.${changes}`;
}

function readmeText(r: { orgName: string; creatorName: string; format: string; now: Date; entries: DigestEntry[]; omitted: number; firstDelivery: boolean }) {
  return [
    `PRD Studio digest: ${r.orgName}`,
    `Generated ${nowIso(r.now)}, with the projects ${r.creatorName} can read (archived projects left out).`,
    `Format: ${r.format}`,
    "",
    r.entries.length ? `${plural(r.entries.length, "project")}, most recently updated first:` : "No projects to report.",
    ...r.entries.map((e) => entryLine(e, r.firstDelivery)),
    ...(r.omitted ? ["", `${r.omitted} more project${r.omitted === 1 ? " is" : "s are"} not included (at most ${DIGEST_MAX_PROJECTS} per digest).`] : []),
    "",
  ].join("\n");
}
