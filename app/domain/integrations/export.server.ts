import { db } from "~/db.server";
import type { Actor } from "../actor";
import { AppError } from "../errors";
import { emit } from "../events/events.server";
import { assertFeatureEnabled } from "../flags/flags.server";
import { gateExport, releaseGrants } from "../exports/export-approval.server";
import { renderExport } from "../exports/files.server";
import { prepareDocument } from "../exports/prepare.server";
import { type ExportSource, projectSourceFor } from "../exports/source.server";
import { requireConnection, withConnection } from "./connections.server";
import {
  type ExportDocsInput,
  type ExportNotesInput,
  type ExportWikiInput,
  exportDocsSchema,
  exportNotesSchema,
  exportWikiSchema,
} from "./integrations.schema";
import { chunkBlocks, markdownToNotionBlocks, type NotionBlock } from "./notes-blocks";
import { type IntegrationProvider, PROVIDER_INFO } from "./providers";
import { createGoogleDoc } from "./providers/docs.server";
import { createNotionPage, firstSharedPage } from "./providers/notes.server";
import { createWikiPage, resolveSpaceKey } from "./providers/wiki.server";
import { wikiStorage } from "./wiki-storage.server";

/**
 * POST /api/export/{notes,wiki,docs}: a project's PRD (or, for the wiki,
 * given content) published into the caller's connected workspace. Each run
 * that reached the service emits export.completed or export.failed.
 */

function requireContent(source: ExportSource) {
  if (!source.markdown.trim()) throw new AppError("CONFLICT", 409, `“${source.title}” has no PRD yet: write or generate it before exporting`);
}

async function record(
  actor: Actor,
  provider: IntegrationProvider,
  projectId: string | null,
  outcome: { ok: true; id: string; url: string } | { ok: false; error: string },
) {
  await db.transaction().execute((trx) =>
    emit(trx, {
      orgId: actor.org.id,
      actorId: actor.user.id,
      name: outcome.ok ? "export.completed" : "export.failed",
      data: outcome.ok
        ? { projectId, format: provider, userId: actor.user.id, id: outcome.id, url: outcome.url }
        : { projectId, format: provider, userId: actor.user.id, error: outcome.error },
    }),
  );
}

/**
 * Runs an export with the caller's connection and records its outcome once
 * the service was involved. A project export first passes the `prd_export`
 * approval gate (202 APPROVAL_REQUIRED while an active workflow has no
 * approved request of the caller); a failed export gives its grant back.
 */
async function run<T extends { id: string; url: string }>(
  actor: Actor,
  provider: IntegrationProvider,
  project: { id: string; label: string } | null,
  work: Parameters<typeof withConnection<T>>[2],
  projectId: string | null = project?.id ?? null,
): Promise<T> {
  await requireConnection(actor, provider);
  const grants = project ? await gateExport(actor, [project], provider) : new Map<string, string>();
  let started = false;
  try {
    const result = await withConnection(actor, provider, (call, ctx) => {
      started = true;
      return work(call, ctx);
    });
    await record(actor, provider, projectId, { ok: true, id: result.id, url: result.url });
    return result;
  } catch (error) {
    if (grants.size) await db.transaction().execute((trx) => releaseGrants(trx, [...grants.values()]));
    if (started && error instanceof AppError && (error.code === "PROVIDER_ERROR" || error.code === "INTEGRATION_NOT_CONNECTED")) {
      await record(actor, provider, projectId, { ok: false, error: error.message });
    }
    throw error;
  }
}

const subtitleBlock = (text: string): NotionBlock[] =>
  text
    ? [
        {
          object: "block",
          type: "paragraph",
          paragraph: {
            rich_text: [
              {
                type: "text",
                text: { content: text.slice(0, 2000), link: null },
                annotations: { bold: false, italic: true, strikethrough: false, underline: false, code: false, color: "gray" },
              },
            ],
          },
        },
      ]
    : [];

export async function exportToNotes(actor: Actor, input: ExportNotesInput): Promise<{ success: true; pageUrl: string; pageId: string }> {
  const source = await projectSourceFor(actor, input.projectId);
  requireContent(source);
  const page = await run(actor, "notes", { id: source.projectId, label: source.title }, async (call, { settings }) => {
    const parentPageId = input.parentPageId ?? (await firstSharedPage(settings, call));
    if (!parentPageId) {
      throw new AppError("VALIDATION_ERROR", 400, "No Notion page is shared with the integration: pass parentPageId, or share a page with it in Notion", {
        details: [{ path: "parentPageId", message: "Required: no shared page to put the export under" }],
      });
    }
    const blocks = [...subtitleBlock(source.subtitle), ...markdownToNotionBlocks(source.markdown)];
    const created = await createNotionPage(settings, call, { parentPageId, title: source.title, chunks: chunkBlocks(blocks) });
    return { id: created.pageId, url: created.pageUrl };
  });
  return { success: true, pageUrl: page.url, pageId: page.id };
}

const firstHeading = (markdown: string) => /^#{1,6}\s+(.+?)\s*#*\s*$/m.exec(markdown)?.[1]?.replace(/[*_`]/g, "").trim() || null;

/** Content exports (markdown in the body) are not held by approvals, like the file exports' content mode; `fromProject` is. */
export async function exportToWiki(
  actor: Actor,
  input: ExportWikiInput,
  fromProject: { id: string; label: string } | null = null,
): Promise<{ success: true; pageUrl: string; pageId: string }> {
  if (input.projectId && !fromProject) await projectSourceFor(actor, input.projectId);
  const title = (input.projectName || firstHeading(input.content) || "Product requirements").slice(0, 255);
  const page = await run(
    actor,
    "wiki",
    fromProject,
    async (call, { settings, connection }) => {
      const cloudId = connection.workspaceId;
      if (!cloudId) throw new AppError("INTEGRATION_NOT_CONNECTED", 409, "The Confluence connection has no site: connect it again");
      const spaceKey = await resolveSpaceKey(settings, call, cloudId, input.spaceId);
      const created = await createWikiPage(settings, call, cloudId, { title, spaceKey, parentId: input.parentId, storage: wikiStorage(input.content) });
      return { id: created.pageId, url: created.pageUrl };
    },
    input.projectId ?? null,
  );
  return { success: true, pageUrl: page.url, pageId: page.id };
}

export async function exportToDocs(actor: Actor, input: ExportDocsInput): Promise<{ success: true; documentUrl: string; documentId: string }> {
  const source = await projectSourceFor(actor, input.projectId);
  requireContent(source);
  const doc = await run(actor, "docs", { id: source.projectId, label: source.title }, async (call, { settings }) => {
    const file = await renderExport(await prepareDocument({ ...source, viewer: actor }), "html");
    const created = await createGoogleDoc(settings, call, { name: source.title, html: file.bytes });
    return { id: created.documentId, url: created.documentUrl };
  });
  return { success: true, documentUrl: doc.url, documentId: doc.id };
}

/** The settings page's "Export a project" form: the same operations, from a project id and the form's raw fields. */
export async function exportProject(
  actor: Actor,
  target: IntegrationProvider,
  values: Record<string, string | undefined>,
): Promise<{ url: string; id: string }> {
  await assertFeatureEnabled(actor, PROVIDER_INFO[target].flag);
  if (target === "notes") {
    const r = await exportToNotes(actor, exportNotesSchema.parse({ projectId: values.projectId, parentPageId: values.parentPageId }));
    return { url: r.pageUrl, id: r.pageId };
  }
  if (target === "docs") {
    const r = await exportToDocs(actor, exportDocsSchema.parse({ projectId: values.projectId }));
    return { url: r.documentUrl, id: r.documentId };
  }
  const { projectId } = exportDocsSchema.parse({ projectId: values.projectId });
  const source = await projectSourceFor(actor, projectId);
  requireContent(source);
  const input = exportWikiSchema.parse({ content: source.markdown, projectName: source.title, spaceId: values.spaceId, parentId: values.parentId, projectId });
  const r = await exportToWiki(actor, input, { id: source.projectId, label: source.title });
  return { url: r.pageUrl, id: r.pageId };
}
