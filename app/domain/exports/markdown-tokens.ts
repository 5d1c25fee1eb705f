import { decodeEntities } from "~/utils/html-entities";
import { Lexer, type Token, type Tokens, walkTokens } from "marked";

/**
 * Shared reading of a PRD's markdown for the exporters: the marked tokens
 * (GitHub-flavoured), which fences are Mermaid diagrams, which images a
 * document references, and the small text helpers every writer needs
 * (marked leaves entities such as `&amp;` in text tokens as written).
 */

export type { Token, Tokens };

export function lexMarkdown(markdown: string): Token[] {
  return Lexer.lex(markdown, { gfm: true, breaks: false });
}

/** A ```mermaid fence (the info string's first word, case-insensitive). */
export function isMermaid(token: Token): token is Tokens.Code {
  return token.type === "code" && /^mermaid$/i.test(((token as Tokens.Code).lang ?? "").trim().split(/\s+/)[0] ?? "");
}

/** The key of a diagram in ExportDocument.diagrams. */
export const diagramKey = (source: string) => source.trim();

const IMG_SRC = /<img\b[^>]*?\bsrc\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+))/gi;

/** Sources of raw-HTML <img> tags in a piece of HTML (as written). */
export function htmlImageSources(html: string): string[] {
  const out: string[] = [];
  for (const m of html.matchAll(IMG_SRC)) out.push(decodeEntities(m[1] ?? m[2] ?? m[3] ?? ""));
  return out.filter(Boolean);
}

/** Distinct Mermaid sources (trimmed) and image URLs (as written) of a document, in order of appearance. */
export function exportReferences(tokens: Token[]): { mermaid: string[]; images: string[] } {
  const mermaid = new Set<string>();
  const images = new Set<string>();
  walkTokens(tokens, (token) => {
    if (isMermaid(token)) mermaid.add(diagramKey(token.text));
    else if (token.type === "image") images.add((token as Tokens.Image).href);
    else if (token.type === "html") for (const src of htmlImageSources((token as Tokens.HTML).text)) images.add(src);
  });
  return { mermaid: [...mermaid].filter(Boolean), images: [...images] };
}

export { decodeEntities };

/** A link target that may stay in an export: http(s), mailto, or an in-document #anchor. Null otherwise. */
export function safeLinkHref(href: string | null | undefined): string | null {
  const value = (href ?? "").trim();
  if (/^#[\w\-.:%]*$/.test(value)) return value;
  if (/^(https?:\/\/|mailto:)/i.test(value) && !/[\s<>"]/.test(value)) return value;
  return null;
}

/** Text of inline tokens, formatting dropped (headings in a table of contents, alt texts...). */
export function plainText(tokens: Token[] | undefined): string {
  let out = "";
  for (const t of tokens ?? []) {
    if (t.type === "html") continue;
    if (t.type === "br") out += " ";
    else if ("tokens" in t && t.tokens && t.type !== "codespan") out += plainText(t.tokens);
    else if (t.type === "image") out += (t as Tokens.Image).text;
    else if ("text" in t && typeof t.text === "string") out += t.type === "codespan" ? t.text : decodeEntities(t.text);
  }
  return out;
}

/** Text of raw HTML: tags dropped (script, style and their content too), entities decoded, whitespace collapsed. */
export function htmlText(html: string): string {
  return decodeEntities(
    html
      .replace(/<(script|style|textarea|template)\b[\s\S]*?<\/\1\s*>/gi, "")
      .replace(/<!--[\s\S]*?-->/g, "")
      .replace(/<[^>]*>/g, " ")
      .replace(/\s+/g, " ")
      .trim(),
  );
}
