import { stringify } from "csv-stringify/sync";
import type { Viewer } from "../projects/access.server";
import { getConversation } from "./conversation.server";
import { textPdf } from "~/utils/pdf.server";
import { slugify } from "~/utils/markdown.server";
import { db } from "~/db.server";

/**
 * The builder conversation of a project as a file: JSON (everything), CSV
 * (one row per question/answer pair, safe to open in a spreadsheet) or PDF
 * (a readable transcript).
 */

export type ChatExportFormat = "pdf" | "csv" | "json";

/**
 * Spreadsheet apps run a cell that starts with = + - @ (or a tab or carriage
 * return) as a formula; a leading apostrophe makes it text (OWASP CSV injection).
 */
export function csvSafe(value: string) {
  return /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
}

export async function exportConversation(viewer: Viewer, projectId: string, format: ChatExportFormat) {
  const { qaPairs } = await getConversation(viewer, projectId);
  const project = await db.selectFrom("projects").select(["name"]).where("id", "=", projectId).executeTakeFirstOrThrow();
  const base = `${slugify(project.name)}-conversation`;
  if (format === "json") {
    const body = JSON.stringify({ project: { id: projectId, name: project.name }, exportedAt: new Date().toISOString(), qaPairs }, null, 2);
    return { filename: `${base}.json`, contentType: "application/json; charset=utf-8", body: Buffer.from(body) };
  }
  if (format === "csv") {
    const rows = qaPairs.map((p) => [String(p.position), p.question, p.answer, p.response, p.model, p.createdAt].map(csvSafe));
    const body = stringify([["position", "question", "answer", "response", "model", "createdAt"], ...rows]);
    // A BOM so spreadsheet apps read the file as UTF-8.
    return { filename: `${base}.csv`, contentType: "text/csv; charset=utf-8", body: Buffer.from(`\uFEFF${body}`) };
  }
  const blocks = qaPairs.flatMap((p) => [
    { kind: "heading" as const, text: `${p.position}. ${p.question}` },
    { kind: "paragraph" as const, text: p.answer },
    { kind: "meta" as const, text: `Assistant (${p.model === "builtin" ? "offline drafter" : p.model}): ${p.response}` },
  ]);
  const body = await textPdf(
    `${project.name}: PRD conversation`,
    blocks.length ? blocks : [{ kind: "paragraph", text: "No questions have been answered yet." }],
  );
  return { filename: `${base}.pdf`, contentType: "application/pdf", body };
}
