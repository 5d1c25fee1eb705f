import { Marked } from "marked";
import sanitizeHtml from "sanitize-html";

/**
 * PRD markdown (or HTML) to safe HTML: marked renders, sanitize-html keeps
 * only document markup. Headings get stable ids so comments and links can
 * anchor to sections.
 */
export function slugify(text: string) {
  return (
    text
      .toLowerCase()
      .replace(/<[^>]+>/g, "")
      .replace(/&[a-z]+;/g, "")
      .replace(/[^\p{L}\p{N}]+/gu, "-")
      .replace(/^-+|-+$/g, "")
      .slice(0, 80) || "section"
  );
}

function renderer() {
  const seen = new Map<string, number>();
  const marked = new Marked({ gfm: true, breaks: false });
  marked.use({
    renderer: {
      heading({ tokens, depth }) {
        const text = this.parser.parseInline(tokens);
        const base = slugify(text);
        const n = seen.get(base) ?? 0;
        seen.set(base, n + 1);
        const id = n ? `${base}-${n}` : base;
        return `<h${depth} id="${id}">${text}</h${depth}>\n`;
      },
    },
  });
  return marked;
}

const SANITIZE: sanitizeHtml.IOptions = {
  allowedTags: [...sanitizeHtml.defaults.allowedTags, "h1", "h2", "img", "del", "input", "details", "summary"],
  allowedAttributes: {
    ...sanitizeHtml.defaults.allowedAttributes,
    "*": ["id"],
    a: ["href", "title", "name"],
    img: ["src", "alt", "title", "width", "height"],
    input: ["type", "checked", "disabled"],
    td: ["align"],
    th: ["align"],
  },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["http", "https", "data"] },
  transformTags: {
    a: sanitizeHtml.simpleTransform("a", { rel: "noopener noreferrer" }),
    input: (tagName, attribs) => (attribs.type === "checkbox" ? { tagName, attribs: { ...attribs, disabled: "" } } : { tagName: "span", attribs: {} }),
  },
};

export function renderMarkdown(markdown: string): string {
  const html = renderer().parse(markdown, { async: false }) as string;
  return sanitizeHtml(html, SANITIZE);
}

/**
 * `renderMarkdown` for a page of the app (not an export), for small screens
 * (docs/ui.md, "Small screens"): a table is in a box that scrolls sideways
 * (as `TableScroll`), and a code block, which scrolls when its lines are longer
 * than the screen, takes focus so keyboard users can scroll it.
 */
export function renderMarkdownForPage(markdown: string): string {
  return renderMarkdown(markdown)
    .replace(/<pre\b/g, '<pre tabindex="0"')
    .replace(/<table\b[^>]*>/g, '<div class="table-scroll" role="region" aria-label="Table" tabindex="0">$&')
    .replaceAll("</table>", "</table></div>");
}

/** The document's sections (level 1–3 headings) with their anchor ids. */
export function sections(markdown: string): { id: string; title: string; level: number }[] {
  return sectionHeadings(markdown).map(({ id, title, level }) => ({ id, title, level }));
}

/** `sections`, each with the index of its heading's line (`markdown.split("\n")`). */
export function sectionHeadings(markdown: string): { id: string; title: string; level: number; line: number }[] {
  const out: { id: string; title: string; level: number; line: number }[] = [];
  const seen = new Map<string, number>();
  let fenced = false;
  for (const [index, line] of markdown.split("\n").entries()) {
    if (/^\s*(```|~~~)/.test(line)) fenced = !fenced;
    if (fenced) continue;
    const m = /^(#{1,3})\s+(.+?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const title = m[2]!.replace(/[*_`]/g, "");
    const base = slugify(title);
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    out.push({ id: n ? `${base}-${n}` : base, title, level: m[1]!.length, line: index });
  }
  return out;
}
