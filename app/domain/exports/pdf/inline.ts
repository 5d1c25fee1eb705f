import type { Token, Tokens } from "marked";
import { decodeEntities, htmlImageSources, plainText, safeLinkHref } from "../markdown-tokens";
import type { Measurer } from "./measure";
import type { TextStyle, Theme } from "./theme";
import { CODE_SIZE, BODY_SIZE } from "./theme";
import type { Run } from "./wrap";

/**
 * marked's inline tokens to styled runs. marked (v18) leaves HTML entities
 * and inline HTML in the token text; entities are decoded, tags dropped
 * (`<br>` is a line break). Images come out as separate items so the block
 * layout can place them between lines.
 */

export type Inline = Run | { image: { href: string; alt: string } };

/** A heading's text on one line (contents, outline, anchors). */
export function headingText(tokens: Token[] | undefined) {
  return plainText(tokens).replace(/\s+/g, " ").trim();
}

/** The alt text of an <img> tag, if any. */
export function imgAlt(tag: string) {
  const match = /\balt\s*=\s*(?:"([^"]*)"|'([^']*)')/i.exec(tag);
  return decodeEntities(match?.[1] ?? match?.[2] ?? "");
}

export function inlineRuns(tokens: Token[] | undefined, base: TextStyle, theme: Theme, m: Measurer, out: Inline[] = []): Inline[] {
  const push = (text: string, style: TextStyle) => {
    if (text) out.push({ text: m.clean(text, style.face), style });
  };
  for (const token of tokens ?? []) {
    const t = token as Tokens.Generic;
    switch (t.type) {
      case "text":
        if (Array.isArray(t.tokens) && t.tokens.length > 0) inlineRuns(t.tokens, base, theme, m, out);
        else push(decodeEntities(t.text).replace(/\n/g, " "), base);
        break;
      case "escape":
        push(t.text, base);
        break;
      case "strong":
        inlineRuns(t.tokens, { ...base, face: base.face === "mono" ? "mono" : "bold" }, theme, m, out);
        break;
      case "em":
        inlineRuns(t.tokens, { ...base, face: base.face === "regular" ? "italic" : base.face }, theme, m, out);
        break;
      case "del":
        inlineRuns(t.tokens, { ...base, strike: true }, theme, m, out);
        break;
      case "codespan": {
        const size = base.size === BODY_SIZE ? CODE_SIZE + 0.5 : base.size * 0.9;
        push(t.text.replace(/\n/g, " "), { ...base, face: "mono", size, code: true });
        break;
      }
      case "link": {
        const href = safeLinkHref(String(t.href ?? ""));
        const style = href ? { ...base, color: theme.link, link: href } : base;
        inlineRuns(t.tokens, style, theme, m, out);
        break;
      }
      case "image":
        out.push({ image: { href: String(t.href ?? ""), alt: decodeEntities(String(t.text ?? "")) } });
        break;
      case "br":
        push("\n", base);
        break;
      case "html": {
        const tag = String(t.text).trim();
        if (/^<br\s*\/?>$/i.test(tag)) push("\n", base);
        const src = /^<img\b/i.test(tag) ? htmlImageSources(tag)[0] : undefined;
        if (src) out.push({ image: { href: src, alt: imgAlt(tag) } });
        break;
      }
      case "checkbox":
        break;
      default:
        if (Array.isArray(t.tokens) && t.tokens.length > 0) inlineRuns(t.tokens, base, theme, m, out);
        else if (typeof t.text === "string") push(decodeEntities(t.text), base);
    }
  }
  return out;
}

/** Runs only: images become their alt text (table cells, headings). */
export function textRuns(tokens: Token[] | undefined, base: TextStyle, theme: Theme, m: Measurer): Run[] {
  return inlineRuns(tokens, base, theme, m).map((item) =>
    "image" in item ? { text: m.clean(`[${item.image.alt || "image"}]`, base.face), style: { ...base, face: "italic" as const } } : item,
  );
}
