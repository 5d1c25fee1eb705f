/**
 * The document every exporter renders. Built once per export by
 * prepare.server.ts, then handed to render/html, render/pdf or render/docx.
 */

export type ExportFormat = "pdf" | "html" | "docx" | "markdown";
export const EXPORT_FORMATS = ["pdf", "html", "docx", "markdown"] as const;

export interface ExportBranding {
  /** Hex colour, e.g. #4f46e5. */
  primaryColor: string;
  accentColor: string;
  /** Shown on the title page and in headers; null → the organization's name. */
  companyName: string | null;
  /** The organization's logo, PNG (re-encoded on upload), or null. */
  logo: ExportImage | null;
}

export interface ExportImage {
  data: Buffer;
  contentType: "image/png" | "image/jpeg" | "image/webp" | "image/gif";
  width: number;
  height: number;
}

/** A Mermaid block rendered to SVG and PNG (2× device scale; width/height in CSS px). */
export interface RenderedDiagram {
  svg: string;
  png: Buffer;
  width: number;
  height: number;
}

export interface ExportDocument {
  title: string;
  /** One line under the title (status, version, author...). */
  subtitle: string | null;
  /** The PRD (GitHub-flavoured markdown). Untrusted: renderers sanitize. */
  markdown: string;
  generatedAt: Date;
  branding: ExportBranding;
  /** Key: the Mermaid source, trimmed. Null: could not be rendered here (renderers show a clear fallback). */
  diagrams: Map<string, RenderedDiagram | null>;
  /** Key: an image URL as written in the markdown. Only images we could load locally; others show their alt text. */
  images: Map<string, ExportImage>;
}

export interface ExportFile {
  bytes: Uint8Array;
  contentType: string;
  /** File name with extension, safe for Content-Disposition. */
  filename: string;
}

export const CONTENT_TYPES: Record<ExportFormat, string> = {
  pdf: "application/pdf",
  html: "text/html; charset=utf-8",
  docx: "application/vnd.openxmlformats-officedocument.wordprocessingml.document",
  markdown: "text/markdown; charset=utf-8",
};

/** A file name from a title: letters, digits, dashes; never empty. */
export function exportFilename(title: string, format: ExportFormat) {
  const base =
    title
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .replace(/[^A-Za-z0-9]+/g, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 80) || "prd";
  return `${base}.${format === "markdown" ? "md" : format}`;
}
