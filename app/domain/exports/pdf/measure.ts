import type { FaceMetrics, FaceName } from "./fonts.server";

/**
 * Measuring text: per-code-point advance widths (cached in FaceMetrics)
 * summed. No kerning or ligatures, which is also how the text is drawn (one
 * glyph per code point), so measured and drawn widths agree.
 */

export const REPLACEMENT = 0xfffd;

export type Metrics = Record<FaceName, FaceMetrics>;

export class Measurer {
  constructor(readonly metrics: Metrics) {}

  /** The face that draws `cp` in a run set in `face`: itself, else DejaVu Sans, else none (replaced). */
  resolve(face: FaceName, cp: number): FaceName | null {
    if (this.metrics[face].has(cp)) return face;
    if (face !== "regular" && this.metrics.regular.has(cp)) return "regular";
    return null;
  }

  /** Advance of one code point in em, fallback face included. */
  advance(face: FaceName, cp: number): number {
    const own = this.metrics[face].advance(cp);
    if (own >= 0) return own;
    const regular = this.metrics.regular.advance(cp);
    if (regular >= 0) return regular;
    return this.metrics[face].advance(REPLACEMENT);
  }

  width(text: string, face: FaceName, size: number): number {
    let total = 0;
    for (let i = 0; i < text.length; i++) {
      let cp = text.charCodeAt(i);
      if (cp >= 0xd800 && cp <= 0xdbff && i + 1 < text.length) {
        cp = text.codePointAt(i)!;
        i++;
      }
      total += this.advance(face, cp);
    }
    return total * size;
  }

  /**
   * Text every glyph of which some face can draw: NFC, control characters
   * dropped, tabs as spaces, code points no font has replaced by U+FFFD.
   */
  clean(text: string, face: FaceName): string {
    const normalized = text.normalize("NFC");
    let out = "";
    let from = 0;
    for (let i = 0; i < normalized.length; i++) {
      const cp = normalized.codePointAt(i)!;
      const wide = cp > 0xffff;
      let replacement: string | null = null;
      if (cp === 10) continue;
      if (cp === 9) replacement = "    ";
      else if (cp < 32 && cp !== 10) replacement = "";
      else if ((cp >= 0x7f && cp < 0xa0) || cp === 0xad || (cp >= 0xfe00 && cp <= 0xfe0f) || cp === 0x200d) replacement = "";
      else if (!this.resolve(face, cp)) replacement = "\ufffd";
      if (replacement !== null) {
        out += normalized.slice(from, i) + replacement;
        from = i + (wide ? 2 : 1);
      }
      if (wide) i++;
    }
    return from === 0 ? normalized : out + normalized.slice(from);
  }
}
