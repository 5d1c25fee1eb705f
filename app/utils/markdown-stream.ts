import { Marked } from "marked";

/**
 * Markdown for text still streaming in (the builder's reply), rendered in
 * the browser between chunks. Safe without a sanitizer because nothing but
 * marked's own tags can come out: raw HTML is escaped, links show their text
 * and images their alt text. Once the reply is saved, the server's
 * sanitized rendering (renderMarkdown) replaces it, links included.
 */

const ESCAPES: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };
const escape = (s: string) => s.replace(/[&<>"']/g, (c) => ESCAPES[c]!);

const marked = new Marked({
  gfm: true,
  breaks: true,
  async: false,
  renderer: {
    html: ({ text }) => escape(text),
    image: ({ text }) => escape(text),
    link({ tokens }) {
      return this.parser.parseInline(tokens);
    },
  },
});

export function streamingHtml(markdown: string): string {
  return marked.parse(markdown) as string;
}
