import { renderMarkdown } from "~/utils/markdown.server";
import type { ExportDocument } from "../document";

/** Scaffolding: the self-contained, branded HTML document. */
export function renderHtml(doc: ExportDocument): string {
  const esc = (s: string) => s.replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]!);
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>${esc(doc.title)}</title></head><body><h1>${esc(doc.title)}</h1>${renderMarkdown(doc.markdown)}</body></html>`;
}
