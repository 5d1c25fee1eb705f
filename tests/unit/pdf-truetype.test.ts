import { describe, expect, it } from "vitest";
import { trueType } from "~/domain/exports/pdf/fonts.server";
import { glyphClosure, subsetTrueType } from "~/domain/exports/pdf/subset";
import { TrueTypeFont } from "~/domain/exports/pdf/truetype";

/** The TrueType reader and subsetter behind the PDF export's embedded DejaVu fonts. */

const font = trueType("regular");
const cps = (text: string) => [...text].map((c) => c.codePointAt(0)!);

function sum(bytes: Uint8Array) {
  const padded = new Uint8Array(Math.ceil(bytes.length / 4) * 4);
  padded.set(bytes);
  const view = new DataView(padded.buffer);
  let total = 0;
  for (let i = 0; i < padded.length; i += 4) total = (total + view.getUint32(i)) >>> 0;
  return total;
}

describe("TrueType reader", () => {
  it("maps code points to glyphs through the BMP and the full-repertoire cmap", () => {
    for (const cp of cps("Aé—✓Пж")) expect(font.glyphId(cp), String.fromCodePoint(cp)).toBeGreaterThan(0);
    expect(font.glyphId(0x1f600)).toBeGreaterThan(0); // 😀, only in the format 12 subtable
    expect(font.glyphId(0x4e2d)).toBe(0); // 中: DejaVu has no CJK
    expect(font.glyphId(cps("A")[0]!)).not.toBe(font.glyphId(cps("B")[0]!));
  });

  it("reads the metrics the PDF needs", () => {
    expect(font.unitsPerEm).toBe(2048);
    expect(font.ascent).toBeGreaterThan(0);
    expect(font.descent).toBeLessThan(0);
    expect(font.advance(font.glyphId(0x20))).toBe(651);
    expect(trueType("mono").fixedPitch).toBe(true);
    expect(trueType("italic").italicAngle).toBeLessThan(0);
  });
});

describe("TrueType subset", () => {
  const composite = cps("éüÅçñǄǅẞ")
    .map((cp) => font.glyphId(cp))
    .find((gid) => font.components(gid).length > 0);
  const used = [...cps("Hello, Zürich ✓"), 0x41].map((cp) => font.glyphId(cp));
  if (composite) used.push(composite);
  const subset = subsetTrueType(font, used);
  const reread = new TrueTypeFont(subset);

  it("keeps the outlines of the used glyphs and of the glyphs composites are built from, and nothing else", () => {
    expect(composite, "DejaVu Sans has composite glyphs").toBeDefined();
    const kept = glyphClosure(font, used);
    for (const component of font.components(composite!)) expect(kept.has(component)).toBe(true);
    expect(reread.numGlyphs).toBe(font.numGlyphs);
    for (let gid = 0; gid < font.numGlyphs; gid++) {
      const [start, end] = reread.glyphRange(gid);
      if (!kept.has(gid)) {
        expect(end - start, `glyph ${gid}`).toBe(0);
        continue;
      }
      const [s0, e0] = font.glyphRange(gid);
      expect(Buffer.from(subset.subarray(start, end)).equals(Buffer.from(font.bytes.subarray(s0, e0))), `glyph ${gid}`).toBe(true);
    }
    expect(subset.length).toBeLessThan(font.bytes.length / 5);
  });

  it("writes a well-formed font: table checksums and the whole-file checksum adjustment", () => {
    expect([...reread.tables.keys()].sort()).toEqual(["cvt ", "fpgm", "glyf", "head", "hhea", "hmtx", "loca", "maxp", "prep"]);
    const view = new DataView(subset.buffer, subset.byteOffset, subset.byteLength);
    for (let i = 0; i < reread.tables.size; i++) {
      const record = 12 + i * 16;
      const { offset, length } = reread.tables.get(String.fromCharCode(...subset.subarray(record, record + 4)))!;
      const table = subset.slice(offset, offset + length);
      if (String.fromCharCode(...subset.subarray(record, record + 4)) === "head") new DataView(table.buffer).setUint32(8, 0);
      expect(view.getUint32(record + 4)).toBe(sum(table));
    }
    expect(sum(subset)).toBe(0xb1b0afba);
    expect(reread.advance(font.glyphId(0x20))).toBe(651);
    expect(reread.unitsPerEm).toBe(2048);
  });
});
