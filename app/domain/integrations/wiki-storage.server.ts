import { Lexer, type Token, type Tokens } from "marked";
import { renderMarkdown } from "~/utils/markdown.server";

/**
 * PRD markdown → Confluence storage format: the sanitized HTML of
 * renderMarkdown made well-formed XHTML (void elements self-closed, no bare
 * attributes), with Confluence's own markup where plain HTML is not stored
 * faithfully: images as <ac:image>, code blocks as the code macro,
 * <details> as the expand macro, task checkboxes as ☑/☐.
 */

const unescapeHtml = (s: string) =>
  s
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, "&");
const escapeAttr = (s: string) =>
  s
    .replace(/&(?!(?:[a-z]+|#\d+|#x[0-9a-f]+);)/gi, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/"/g, "&quot;");
const cdata = (s: string) => `<![CDATA[${s.replace(/]]>/g, "]]]]><![CDATA[>")}]]>`;
const attr = (tag: string, name: string) => new RegExp(`\\s${name}="([^"]*)"`).exec(tag)?.[1] ?? null;

function codeMacro(code: string, language: string | null) {
  const lang = language ? `<ac:parameter ac:name="language">${escapeAttr(language)}</ac:parameter>` : "";
  return `<ac:structured-macro ac:name="code">${lang}<ac:plain-text-body>${cdata(unescapeHtml(code).replace(/\n$/, ""))}</ac:plain-text-body></ac:structured-macro>`;
}

export function wikiStorage(markdown: string): string {
  // The code blocks' languages in document order, since sanitizing drops the language class.
  const languages: (string | null)[] = [];
  walkTokens(Lexer.lex(markdown, { gfm: true }), (t) => {
    if (t.type === "code") languages.push((t as Tokens.Code).lang?.trim().split(/\s+/)[0] || null);
  });
  let codeIndex = 0;
  return renderMarkdown(markdown)
    .replace(/ id="[^"]*"/g, "")
    .replace(/<input\b[^>]*>/g, (tag) => (/\schecked\b/.test(tag) ? "☑" : "☐"))
    .replace(/<pre><code>([\s\S]*?)<\/code><\/pre>/g, (_m, code: string) => codeMacro(code, languages[codeIndex++] ?? null))
    .replace(/<img\b[^>]*>/g, (tag) => {
      const src = attr(tag, "src");
      const alt = attr(tag, "alt") ?? "";
      if (!src || !/^https?:\/\//i.test(src)) return alt;
      return `<ac:image ac:alt="${escapeAttr(alt)}"><ri:url ri:value="${escapeAttr(src)}" /></ac:image>`;
    })
    .replace(/<details>\s*<summary>([\s\S]*?)<\/summary>([\s\S]*?)<\/details>/g, (_m, title: string, body: string) => {
      const plainTitle = title.replace(/<[^>]*>/g, "").trim() || "Details";
      return `<ac:structured-macro ac:name="expand"><ac:parameter ac:name="title">${plainTitle}</ac:parameter><ac:rich-text-body>${body.trim().startsWith("<") ? body : `<p>${body}</p>`}</ac:rich-text-body></ac:structured-macro>`;
    })
    .replace(/<\/?(details|summary)>/g, "")
    .replace(/<(br|hr)\s*>/g, "<$1 />");
}

function walkTokens(tokens: Token[], visit: (t: Token) => void) {
  for (const t of tokens) {
    visit(t);
    const any = t as { tokens?: Token[]; items?: Token[] };
    if (any.tokens) walkTokens(any.tokens, visit);
    if (any.items) walkTokens(any.items, visit);
  }
}
