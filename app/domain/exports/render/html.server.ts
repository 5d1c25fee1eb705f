import crypto from "node:crypto";
import { Marked, type Tokens } from "marked";
import sanitizeHtml from "sanitize-html";
import { slugify } from "~/utils/markdown.server";
import type { ExportDocument, ExportImage, RenderedDiagram } from "../document";
import { diagramKey, isMermaid, plainText, safeLinkHref } from "../markdown-tokens";
import { exportCss } from "./html-style";

/**
 * The HTML export: one self-contained, printable file. Inline
 * stylesheet, images as data: URIs, a Content-Security-Policy that forbids
 * scripts and every outside request, the organization's colours, logo and
 * name, a title block and a table of contents.
 *
 * The markdown is untrusted: marked renders it, then sanitize-html keeps
 * document markup only (no script, style, iframe, form; no on* attribute;
 * links only http(s), mailto and #anchors; images only as data: URIs of our
 * own uploads, anything else becomes its alt text). Mermaid fences become
 * random-nonce placeholders before sanitizing and are swapped for our own
 * rendered SVG (or a fallback box with the source) afterwards.
 */

interface TocEntry {
  id: string;
  text: string;
  depth: number;
}

export const esc = (s: string) => s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

export const dataUri = (image: ExportImage) => `data:${image.contentType};base64,${image.data.toString("base64")}`;

const RASTER_DATA_URI = /^data:image\/(?:png|jpeg|gif|webp);base64,[A-Za-z0-9+/=\s]*$/;

function sanitizeOptions(doc: ExportDocument): sanitizeHtml.IOptions {
  const lookup = (src: string) => {
    if (doc.images.has(src)) return doc.images.get(src);
    try {
      return doc.images.get(decodeURI(src));
    } catch {
      return undefined;
    }
  };
  return {
    allowedTags: [...sanitizeHtml.defaults.allowedTags, "h1", "h2", "img", "del", "ins", "input", "details", "summary"].filter(
      (t) => !["nav", "main", "header", "footer"].includes(t),
    ),
    allowedAttributes: {
      "*": ["id"],
      a: ["href", "title", "rel"],
      img: ["src", "alt", "title", "width", "height"],
      span: ["class"],
      input: ["type", "checked", "disabled"],
      ol: ["start"],
      td: ["align", "colspan", "rowspan"],
      th: ["align", "colspan", "rowspan"],
    },
    allowedClasses: { span: ["image-missing"] },
    allowedSchemes: ["http", "https", "mailto"],
    allowedSchemesByTag: { img: ["data"] },
    allowProtocolRelative: false,
    transformTags: {
      a: (tagName, attribs) => {
        const href = safeLinkHref(attribs.href);
        return { tagName, attribs: href ? { href, ...(attribs.title ? { title: attribs.title } : {}), rel: "noopener noreferrer" } : {} };
      },
      img: (tagName, attribs): sanitizeHtml.Tag => {
        const image = lookup(attribs.src ?? "");
        const alt = attribs.alt ?? "";
        if (image) {
          const { width, height } = image;
          return { tagName, attribs: { src: dataUri(image), alt, width: String(width), height: String(height) } };
        }
        if (RASTER_DATA_URI.test(attribs.src ?? "")) return { tagName, attribs: { src: attribs.src!, alt } };
        return { tagName: "span", attribs: { class: "image-missing" }, text: alt.trim() ? `[Image: ${alt.trim()}]` : "[Image]" };
      },
      input: (tagName, attribs) =>
        attribs.type === "checkbox"
          ? { tagName, attribs: { type: "checkbox", disabled: "", ...("checked" in attribs ? { checked: "" } : {}) } }
          : { tagName: "span", attribs: {} },
    },
  };
}

/** Markdown → sanitized body HTML with diagram placeholders resolved, plus the headings for the contents. */
export function renderBody(doc: ExportDocument): { html: string; toc: TocEntry[] } {
  const nonce = crypto.randomBytes(12).toString("hex");
  const diagrams: string[] = [];
  const toc: TocEntry[] = [];
  const seen = new Map<string, number>();
  const marked = new Marked({ gfm: true, breaks: false });
  marked.use({
    renderer: {
      heading({ tokens, depth }) {
        const inner = this.parser.parseInline(tokens);
        const text = plainText(tokens).trim();
        // The same ids as the app's PRD view (utils/markdown.server), so "#section" links keep working.
        const base = slugify(text);
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        const id = n ? `${base}-${n}` : base;
        toc.push({ id, text, depth });
        return `<h${depth} id="${id}">${inner}</h${depth}>\n`;
      },
      code(token: Tokens.Code) {
        if (!isMermaid(token)) return false;
        diagrams.push(diagramKey(token.text));
        return `<p>PRDX${nonce}D${diagrams.length - 1}X</p>\n`;
      },
    },
  });
  const raw = marked.parse(doc.markdown, { async: false }) as string;
  const clean = sanitizeHtml(raw, sanitizeOptions(doc));
  const html = clean
    .replace(new RegExp(`<p>PRDX${nonce}D(\\d+)X</p>`, "g"), (_, i: string) =>
      diagramHtml(diagrams[Number(i)]!, doc.diagrams.get(diagrams[Number(i)]!) ?? null),
    )
    .replace(/<table>/g, '<div class="table-wrap"><table>')
    .replace(/<\/table>/g, "</table></div>");
  return { html, toc };
}

function diagramHtml(source: string, diagram: RenderedDiagram | null): string {
  if (diagram) return `<figure class="diagram" role="img" aria-label="Diagram">${diagram.svg}</figure>`;
  return (
    `<div class="diagram-fallback" role="note"><p><strong>Diagram could not be rendered.</strong> Its Mermaid source is shown instead.</p>` +
    `<pre><code>${esc(source)}</code></pre></div>`
  );
}

function tocHtml(toc: TocEntry[]): string {
  const entries = toc.filter((t) => t.depth <= 3 && t.text);
  if (entries.length < 2) return "";
  let html = "";
  const open: number[] = [];
  for (const e of entries) {
    if (!open.length || e.depth > open.at(-1)!) {
      html += "<ol>";
      open.push(e.depth);
    } else {
      while (open.length > 1 && e.depth < open.at(-1)!) {
        html += "</li></ol>";
        open.pop();
      }
      if (e.depth > open.at(-1)!) {
        html += "<ol>";
        open.push(e.depth);
      } else html += "</li>";
    }
    html += `<li><a href="#${e.id}">${esc(e.text)}</a>`;
  }
  html += "</li></ol>".repeat(open.length);
  return `<nav class="toc" aria-labelledby="prd-contents"><h2 id="prd-contents">Contents</h2>${html}</nav>`;
}

const generatedLabel = (d: Date) =>
  `${d.toLocaleDateString("en-US", { year: "numeric", month: "long", day: "numeric", timeZone: "UTC" })}, ${d.toISOString().slice(11, 16)} UTC`;

/** The complete HTML export of a prepared document. */
export function renderHtml(doc: ExportDocument): string {
  const { html, toc } = renderBody(doc);
  const { branding } = doc;
  const company = branding.companyName ?? "";
  const logo = branding.logo
    ? `<img src="${dataUri(branding.logo)}" alt="${esc(company ? `${company} logo` : "Logo")}" width="${branding.logo.width}" height="${branding.logo.height}">`
    : "";
  const generated = `<time datetime="${doc.generatedAt.toISOString()}">${esc(generatedLabel(doc.generatedAt))}</time>`;
  const csp = "default-src 'none'; img-src data:; style-src 'unsafe-inline'; font-src data:; base-uri 'none'; form-action 'none'";
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="generator" content="PRD Studio">
<title>${esc(doc.title)}</title>
<style>
${exportCss(branding.primaryColor, branding.accentColor)}
</style>
</head>
<body>
<div class="page">
<header class="brand-bar">${logo}${company ? `<span class="company">${esc(company)}</span>` : ""}</header>
<section class="title-block">
<h1>${esc(doc.title)}</h1>
${doc.subtitle ? `<p class="subtitle">${esc(doc.subtitle)}</p>\n` : ""}<p class="generated">Generated ${generated}</p>
</section>
${tocHtml(toc)}
<main class="prd">
${html}
</main>
<footer class="doc-footer"><span>${esc(company)}</span><span>${esc(doc.title)} · ${esc(doc.generatedAt.toISOString().slice(0, 10))}</span></footer>
</div>
</body>
</html>
`;
}
