import { deflateSync } from "node:zlib";
import { type PDFDocument, type PDFRef, PDFString } from "pdf-lib";
import { type FaceName, POSTSCRIPT_NAMES } from "./fonts.server";
import { subsetTrueType } from "./subset";
import type { TrueTypeFont } from "./truetype";

/**
 * One face embedded in one PDF as a Type 0 font (Identity-H, CIDFontType2,
 * CIDToGIDMap Identity): text is written as the font's own 2-byte glyph ids,
 * the glyphs used are recorded, and at the end the subset, its widths and
 * the ToUnicode map (glyph → text, for selecting, searching and copying)
 * are written into the objects whose reference the pages already use.
 */
export class EmbeddedFace {
  readonly ref: PDFRef;
  /** Glyph id → the text it stands for. */
  private readonly used = new Map<number, number>();

  constructor(
    private readonly pdf: PDFDocument,
    readonly face: FaceName,
    readonly font: TrueTypeFont,
  ) {
    this.ref = pdf.context.nextRef();
  }

  get isUsed() {
    return this.used.size > 0;
  }

  use(gid: number, cp: number) {
    if (!this.used.has(gid)) this.used.set(gid, cp);
  }

  write() {
    const { context } = this.pdf;
    const { font } = this;
    const scale = 1000 / font.unitsPerEm;
    const tag = Array.from({ length: 6 }, () => String.fromCharCode(65 + Math.floor(Math.random() * 26))).join("");
    const name = `${tag}+${POSTSCRIPT_NAMES[this.face]}`;

    const subset = subsetTrueType(font, this.used.keys());
    const file = context.register(context.stream(deflateSync(subset, { level: 3 }), { Filter: "FlateDecode", Length1: subset.length }));
    const flags = 4 | (font.fixedPitch ? 1 : 0) | (font.italicAngle !== 0 ? 64 : 0);
    const descriptor = context.register(
      context.obj({
        Type: "FontDescriptor",
        FontName: name,
        Flags: flags,
        FontBBox: font.bbox.map((v) => Math.round(v * scale)),
        ItalicAngle: font.italicAngle,
        Ascent: Math.round(font.ascent * scale),
        Descent: Math.round(font.descent * scale),
        CapHeight: Math.round(font.capHeight * scale),
        StemV: 80,
        FontFile2: file,
      }),
    );

    const gids = [...this.used.keys()].sort((a, b) => a - b);
    const widths: (number | number[])[] = [];
    for (let i = 0; i < gids.length; ) {
      const run: number[] = [];
      let gid = gids[i]!;
      widths.push(gid);
      while (i < gids.length && gids[i] === gid) {
        run.push(Math.round(font.advance(gid) * scale));
        gid++;
        i++;
      }
      widths.push(run);
    }
    const cidFont = context.register(
      context.obj({
        Type: "Font",
        Subtype: "CIDFontType2",
        BaseFont: name,
        CIDSystemInfo: { Registry: PDFString.of("Adobe"), Ordering: PDFString.of("Identity"), Supplement: 0 },
        FontDescriptor: descriptor,
        W: widths,
        CIDToGIDMap: "Identity",
      }),
    );
    const toUnicode = context.register(context.stream(deflateSync(this.cmap(gids)), { Filter: "FlateDecode" }));
    context.assign(
      this.ref,
      context.obj({
        Type: "Font",
        Subtype: "Type0",
        BaseFont: name,
        Encoding: "Identity-H",
        DescendantFonts: [cidFont],
        ToUnicode: toUnicode,
      }),
    );
  }

  private cmap(gids: number[]) {
    const hex4 = (n: number) => n.toString(16).padStart(4, "0");
    const utf16 = (cp: number) => (cp > 0xffff ? hex4(0xd800 + ((cp - 0x10000) >> 10)) + hex4(0xdc00 + ((cp - 0x10000) & 0x3ff)) : hex4(cp));
    const blocks: string[] = [];
    for (let i = 0; i < gids.length; i += 100) {
      const chunk = gids.slice(i, i + 100);
      blocks.push(`${chunk.length} beginbfchar\n${chunk.map((gid) => `<${hex4(gid)}> <${utf16(this.used.get(gid)!)}>`).join("\n")}\nendbfchar`);
    }
    return [
      "/CIDInit /ProcSet findresource begin",
      "12 dict begin",
      "begincmap",
      "/CIDSystemInfo << /Registry (Adobe) /Ordering (UCS) /Supplement 0 >> def",
      "/CMapName /Adobe-Identity-UCS def",
      "/CMapType 2 def",
      "1 begincodespacerange",
      "<0000> <FFFF>",
      "endcodespacerange",
      ...blocks,
      "endcmap",
      "CMapName currentdict /CMap defineresource pop",
      "end",
      "end",
    ].join("\n");
  }
}
