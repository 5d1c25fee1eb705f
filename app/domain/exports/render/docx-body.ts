import { slugify } from "~/utils/markdown.server";
import type { ExportDocument, ExportImage } from "../document";
import {
  decodeEntities,
  diagramKey,
  htmlImageSources,
  htmlText,
  isMermaid,
  lexMarkdown,
  plainText,
  safeLinkHref,
  type Token,
  type Tokens,
} from "../markdown-tokens";
import { tableXml } from "./docx-table";
import { bookmarkName, drawingXml, escAttr, escText, fit, MUTED, type Relationship } from "./docx-xml";

/**
 * Marked tokens → the WordprocessingML body, as strings: real Word
 * headings (Heading1–6, with bookmarks for #anchor links), bulleted and
 * numbered lists (Word numbering, nested levels, each ordered list
 * restarting), tables with a repeated header row, code in the monospace
 * Code style, external links, images and Mermaid diagrams as pictures (or
 * the fallback note with the source). Raw HTML is never interpreted: its
 * text is kept, its tags dropped.
 */

export interface Marks {
  bold?: boolean;
  italics?: boolean;
  strike?: boolean;
  color?: string;
  rStyle?: string;
  /** Half-points. */
  size?: number;
}

interface Place {
  list?: { numId: number; level: number };
  /** A later block of a list item: indented, no number. */
  continued?: boolean;
  quote?: boolean;
}

export type Align = "left" | "center" | "right";

export class DocxBody {
  readonly rels: Relationship[] = [];
  readonly media: { path: string; data: Uint8Array }[] = [];
  readonly orderedLists: { numId: number; level: number; start: number }[] = [];
  private links = new Map<string, string>();
  private pictures = new Map<Uint8Array, string>();
  private nextNumId = 2;
  private drawingId = 0;
  private bookmarkId = 0;
  private slugs = new Map<string, number>();

  constructor(
    private doc: ExportDocument,
    private brand: string,
  ) {}

  /** The body's paragraphs and tables for the PRD markdown. */
  markdown(): string {
    return this.blocks(lexMarkdown(this.doc.markdown), {});
  }

  // ---- blocks

  private blocks(tokens: Token[], place: Place): string {
    let out = "";
    for (const token of tokens) out += this.block(token, place);
    return out;
  }

  private block(token: Token, place: Place): string {
    switch (token.type) {
      case "space":
      case "def":
        return "";
      case "heading":
        return this.heading(token as Tokens.Heading);
      case "paragraph":
      case "text": {
        const t = token as Tokens.Paragraph | Tokens.Text;
        const lone = t.tokens?.length === 1 && t.tokens[0]!.type === "image";
        return this.paragraph(t.tokens ? this.inline(t.tokens, {}) : this.run(t.text, {}), place, lone ? "center" : undefined);
      }
      case "code":
        return isMermaid(token) ? this.diagram(token.text) : this.code((token as Tokens.Code).text);
      case "blockquote":
        return this.blocks((token as Tokens.Blockquote).tokens, { ...place, quote: true });
      case "list":
        return this.list(token as Tokens.List, place);
      case "table":
        return tableXml(token as Tokens.Table, this.brand, (tokens, marks) => this.inline(tokens, marks));
      case "hr":
        return '<w:p><w:pPr><w:pBdr><w:bottom w:val="single" w:sz="6" w:space="1" w:color="D1D5DB"/></w:pBdr></w:pPr></w:p>';
      case "html": {
        const runs = this.htmlRuns((token as Tokens.HTML).text);
        return runs ? this.paragraph(runs, place) : "";
      }
      default:
        return "text" in token && typeof token.text === "string" && token.text.trim() ? this.paragraph(this.run(token.text, {}), place) : "";
    }
  }

  paragraph(runs: string, place: Place = {}, align?: Align, style?: string): string {
    let pPr = "";
    if (style) pPr += `<w:pStyle w:val="${style}"/>`;
    else if (place.list) pPr += '<w:pStyle w:val="ListParagraph"/>';
    else if (place.quote) pPr += '<w:pStyle w:val="Quote"/>';
    if (place.list && !place.continued) pPr += `<w:numPr><w:ilvl w:val="${place.list.level}"/><w:numId w:val="${place.list.numId}"/></w:numPr>`;
    if (place.list && place.continued) pPr += `<w:ind w:left="${720 * (place.list.level + 1)}"/>`;
    if (align && align !== "left") pPr += `<w:jc w:val="${align}"/>`;
    return `<w:p>${pPr ? `<w:pPr>${pPr}</w:pPr>` : ""}${runs}</w:p>`;
  }

  private heading(t: Tokens.Heading): string {
    const base = slugify(plainText(t.tokens));
    const n = this.slugs.get(base) ?? 0;
    this.slugs.set(base, n + 1);
    const id = ++this.bookmarkId;
    const name = bookmarkName(n ? `${base}-${n}` : base);
    const level = Math.min(Math.max(t.depth, 1), 6);
    return `<w:p><w:pPr><w:pStyle w:val="Heading${level}"/></w:pPr><w:bookmarkStart w:id="${id}" w:name="${name}"/>${this.inline(t.tokens, {})}<w:bookmarkEnd w:id="${id}"/></w:p>`;
  }

  private list(token: Tokens.List, place: Place): string {
    const level = place.list ? Math.min(place.list.level + 1, 8) : 0;
    let numId = 1; // bullets never restart: one numbering for all of them
    if (token.ordered) {
      numId = this.nextNumId++;
      this.orderedLists.push({ numId, level, start: Math.max(0, Math.min(Number(token.start) || 1, 32_767)) });
    }
    const list = { numId, level };
    let out = "";
    for (const item of token.items) {
      let first = true;
      const prefix = item.task ? this.run(item.checked ? "☑ " : "☐ ", {}) : "";
      for (const child of item.tokens) {
        if (child.type === "checkbox" || child.type === "space") continue;
        const at: Place = { quote: place.quote, list, continued: !first };
        if (child.type === "list") out += this.list(child as Tokens.List, { quote: place.quote, list });
        else if (first && (child.type === "text" || child.type === "paragraph")) {
          const t = child as Tokens.Text;
          out += this.paragraph(prefix + (t.tokens ? this.inline(t.tokens, {}) : this.run(t.text, {})), at);
        } else out += this.block(child, at);
        first = false;
      }
      if (first) out += this.paragraph(prefix, { quote: place.quote, list });
    }
    return out;
  }

  private code(text: string): string {
    const lines = text.replace(/\t/g, "    ").split("\n");
    const runs = lines.map((line, i) => `<w:r>${i ? "<w:br/>" : ""}<w:t xml:space="preserve">${escText(line)}</w:t></w:r>`).join("");
    return this.paragraph(runs, {}, undefined, "Code");
  }

  private diagram(source: string): string {
    const key = diagramKey(source);
    const d = this.doc.diagrams.get(key);
    if (d) return this.paragraph(this.picture(d.png, "png", d.width, d.height, "Diagram", key.slice(0, 500)), {}, "center");
    const note = this.run("Diagram could not be rendered.", { bold: true }) + this.run(" Its Mermaid source is shown instead.", {});
    return this.paragraph(note, {}, undefined, "DiagramFallback") + this.code(key);
  }

  // ---- inline

  private inline(tokens: Token[] | undefined, marks: Marks): string {
    let out = "";
    let hidden = false;
    for (const t of tokens ?? []) {
      // Inline <script>/<style> (raw HTML): their content is not text of the document.
      if (t.type === "html") {
        const tag = (t as Tokens.HTML).text.trim();
        if (/^<(script|style)\b/i.test(tag)) hidden = !/<\/(script|style)\s*>$/i.test(tag);
        else if (/^<\/(script|style)\s*>$/i.test(tag)) hidden = false;
      }
      if (hidden) continue;
      switch (t.type) {
        case "strong":
          out += this.inline((t as Tokens.Strong).tokens, { ...marks, bold: true });
          break;
        case "em":
          out += this.inline((t as Tokens.Em).tokens, { ...marks, italics: true });
          break;
        case "del":
          out += this.inline((t as Tokens.Del).tokens, { ...marks, strike: true });
          break;
        case "codespan":
          out += this.run((t as Tokens.Codespan).text, { ...marks, rStyle: "InlineCode" }, false);
          break;
        case "br":
          out += "<w:r><w:br/></w:r>";
          break;
        case "link":
          out += this.link(t as Tokens.Link, marks);
          break;
        case "image":
          out += this.image((t as Tokens.Image).href, (t as Tokens.Image).text);
          break;
        case "html": {
          const html = (t as Tokens.HTML).text.trim();
          if (/^<br\s*\/?>$/i.test(html)) out += "<w:r><w:br/></w:r>";
          else if (/^<img\b/i.test(html)) out += this.htmlRuns(html);
          break;
        }
        case "escape":
          out += this.run((t as Tokens.Escape).text, marks, false);
          break;
        default:
          if ("tokens" in t && t.tokens?.length) out += this.inline(t.tokens, marks);
          else if ("text" in t && typeof t.text === "string") out += this.run(t.text, marks);
      }
    }
    return out;
  }

  private link(l: Tokens.Link, marks: Marks): string {
    const href = safeLinkHref(l.href);
    if (!href) return this.inline(l.tokens, marks);
    const runs = this.inline(l.tokens, { ...marks, rStyle: "Hyperlink" });
    if (href.startsWith("#")) return `<w:hyperlink w:anchor="${escAttr(bookmarkName(safeDecode(href.slice(1))))}" w:history="1">${runs}</w:hyperlink>`;
    let id = this.links.get(href);
    if (!id) {
      id = `rIdLink${this.links.size + 1}`;
      this.links.set(href, id);
      this.rels.push({ id, type: "hyperlink", target: href });
    }
    return `<w:hyperlink r:id="${id}" w:history="1">${runs}</w:hyperlink>`;
  }

  /** A raw HTML fragment: its text (tags dropped) and its images (ours embedded, others as alt text). */
  private htmlRuns(html: string): string {
    let out = "";
    let last = 0;
    const text = (part: string) => {
      const t = htmlText(part);
      if (t) out += this.run(out ? ` ${t}` : t, {}, false);
    };
    for (const m of html.matchAll(/<img\b(?:[^>"']|"[^"]*"|'[^']*')*>/gi)) {
      text(html.slice(last, m.index));
      if (out) out += this.run(" ", {});
      const alt = /\balt\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(m[0]);
      out += this.image(htmlImageSources(m[0])[0] ?? "", decodeEntities(alt?.[1] ?? alt?.[2] ?? ""));
      last = m.index + m[0].length;
    }
    text(html.slice(last));
    return out;
  }

  private image(src: string, alt: string): string {
    const image = this.doc.images.get(src);
    // Word takes PNG, JPEG and GIF (prepare.server converts WebP); anything else shows its alt text.
    if (!image || image.contentType === "image/webp") return this.run(alt.trim() ? `[Image: ${alt.trim()}]` : "[Image]", { italics: true, color: MUTED });
    return this.imageRun(image, alt);
  }

  imageRun(image: ExportImage, alt: string, max?: { width: number; height: number }): string {
    const ext = image.contentType === "image/jpeg" ? "jpeg" : image.contentType === "image/gif" ? "gif" : "png";
    const size = fit(image.width, image.height, max);
    return this.picture(image.data, ext, size.width, size.height, alt || "Image", alt || "Image");
  }

  /** An inline picture (px at 96 dpi), its bytes stored once under word/media. */
  private picture(data: Uint8Array, ext: string, widthPx: number, heightPx: number, name: string, descr: string): string {
    const size = fit(widthPx, heightPx);
    let rId = this.pictures.get(data);
    if (!rId) {
      rId = `rIdImage${this.pictures.size + 1}`;
      const path = `media/image${this.pictures.size + 1}.${ext}`;
      this.pictures.set(data, rId);
      this.media.push({ path: `word/${path}`, data });
      this.rels.push({ id: rId, type: "image", target: path });
    }
    return drawingXml({ rId, id: ++this.drawingId, widthPx: size.width, heightPx: size.height, name, descr, ext });
  }

  /** One run of text; entities decoded unless `decode` is false (code, escapes); soft line breaks become spaces. */
  run(text: string, marks: Marks, decode = true): string {
    const value = (decode ? decodeEntities(text) : text).replace(/\r?\n/g, " ");
    if (!value) return "";
    let rPr = "";
    if (marks.rStyle) rPr += `<w:rStyle w:val="${marks.rStyle}"/>`;
    if (marks.bold) rPr += "<w:b/><w:bCs/>";
    if (marks.italics) rPr += "<w:i/><w:iCs/>";
    if (marks.strike) rPr += "<w:strike/>";
    if (marks.color) rPr += `<w:color w:val="${marks.color}"/>`;
    if (marks.size) rPr += `<w:sz w:val="${marks.size}"/><w:szCs w:val="${marks.size}"/>`;
    const parts = value.split("\t").map((p) => (p ? `<w:t xml:space="preserve">${escText(p)}</w:t>` : ""));
    return `<w:r>${rPr ? `<w:rPr>${rPr}</w:rPr>` : ""}${parts.join("<w:tab/>")}</w:r>`;
  }
}

const safeDecode = (s: string) => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};
