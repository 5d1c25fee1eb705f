import type { PDFRef } from "pdf-lib";
import type { EmbeddedFace } from "./font-embed.server";
import { FACES, type FaceName } from "./fonts.server";
import { REPLACEMENT, type Measurer } from "./measure";

/**
 * Text to content-stream operators for the embedded (subset) fonts: one glyph
 * per code point, written as the font's 2-byte glyph id. The first use of a
 * code point in a document records its glyph for the subset and the
 * ToUnicode map (so the text stays selectable and searchable); after that
 * it comes from a cache.
 */
export class GlyphEncoder {
  private readonly cache: Record<FaceName, Map<number, string | null>>;
  private readonly names: Record<FaceName, string>;

  constructor(
    private readonly fonts: Record<FaceName, EmbeddedFace>,
    private readonly m: Measurer,
  ) {
    this.cache = { regular: new Map(), bold: new Map(), italic: new Map(), mono: new Map() };
    this.names = { regular: "F1", bold: "F2", italic: "F3", mono: "F4" };
  }

  /** Resource name → font of the faces the document used, for the shared page resources. */
  resources(): [string, PDFRef][] {
    return FACES.filter((face) => this.fonts[face].isUsed).map((face) => [this.names[face], this.fonts[face].ref]);
  }

  /**
   * The glyph code of `cp` in `face`, cached; null when `face` has no glyph
   * for it and another face (or the replacement character) draws it.
   */
  private code(face: FaceName, cp: number): string | null {
    const cache = this.cache[face];
    let hex = cache.get(cp);
    if (hex === undefined) {
      if (this.m.resolve(face, cp) === face) {
        const embedded = this.fonts[face];
        const gid = embedded.font.glyphId(cp);
        embedded.use(gid, cp);
        hex = gid.toString(16).padStart(4, "0");
      } else hex = null;
      cache.set(cp, hex);
    }
    return hex;
  }

  /** `Tf` and `Tj` operators drawing `text` at the current text position; fallback glyphs switch face. */
  show(text: string, face: FaceName, size: number): string {
    let out = "";
    let current: FaceName | null = null;
    let hex = "";
    const sz = num(size);
    for (let i = 0; i < text.length; i++) {
      let cp = text.charCodeAt(i);
      if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
        cp = text.codePointAt(i)!;
        if (cp > 0xffff) i++;
      }
      let drawFace: FaceName = face;
      let code = this.code(face, cp);
      if (code === null) {
        const other = this.m.resolve(face, cp);
        drawFace = other ?? face;
        code = this.code(drawFace, other ? cp : REPLACEMENT) ?? "";
      }
      if (drawFace !== current) {
        if (current && hex) out += `/${this.names[current]} ${sz} Tf <${hex}> Tj `;
        current = drawFace;
        hex = "";
      }
      hex += code;
    }
    if (current && hex) out += `/${this.names[current]} ${sz} Tf <${hex}> Tj `;
    return out;
  }
}

/** A number for a content stream: at most 2 decimals, no exponent. */
export function num(value: number): string {
  const rounded = Math.round(value * 100) / 100;
  return Object.is(rounded, -0) ? "0" : String(rounded);
}
