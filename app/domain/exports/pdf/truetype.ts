/**
 * Just enough of a TrueType font for the PDF export: the metrics the PDF
 * needs, code point → glyph (cmap formats 4 and 12), advance widths (hmtx),
 * and each glyph's outline bytes (loca/glyf) with the glyphs a composite
 * glyph is made of. Reading is lazy and cached; the font bytes are never
 * copied.
 */

export class TrueTypeFont {
  readonly tables = new Map<string, { offset: number; length: number }>();
  readonly unitsPerEm: number;
  readonly ascent: number;
  readonly descent: number;
  readonly bbox: [number, number, number, number];
  readonly italicAngle: number;
  readonly fixedPitch: boolean;
  readonly capHeight: number;
  readonly numGlyphs: number;
  private readonly view: DataView;
  private readonly numberOfHMetrics: number;
  private readonly longLoca: boolean;
  private cmapTable: { format: 4 | 12; offset: number } | null = null;
  /** BMP code point → glyph id + 1 (0 = not looked up). */
  private readonly bmp = new Uint16Array(0x10000);
  private readonly astral = new Map<number, number>();

  constructor(readonly bytes: Uint8Array) {
    this.view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
    const v = this.view;
    const count = v.getUint16(4);
    for (let i = 0; i < count; i++) {
      const record = 12 + i * 16;
      const tag = String.fromCharCode(bytes[record]!, bytes[record + 1]!, bytes[record + 2]!, bytes[record + 3]!);
      this.tables.set(tag, { offset: v.getUint32(record + 8), length: v.getUint32(record + 12) });
    }
    const head = this.table("head");
    this.unitsPerEm = v.getUint16(head + 18);
    this.bbox = [v.getInt16(head + 36), v.getInt16(head + 38), v.getInt16(head + 40), v.getInt16(head + 42)];
    this.longLoca = v.getInt16(head + 50) === 1;
    const hhea = this.table("hhea");
    this.ascent = v.getInt16(hhea + 4);
    this.descent = v.getInt16(hhea + 6);
    this.numberOfHMetrics = v.getUint16(hhea + 34);
    this.numGlyphs = v.getUint16(this.table("maxp") + 4);
    const post = this.tables.get("post");
    this.italicAngle = post ? v.getInt32(post.offset + 4) / 65536 : 0;
    this.fixedPitch = post ? v.getUint32(post.offset + 12) !== 0 : false;
    const os2 = this.tables.get("OS/2");
    this.capHeight = os2 && v.getUint16(os2.offset) >= 2 ? v.getInt16(os2.offset + 88) : this.ascent;
  }

  private table(tag: string) {
    const table = this.tables.get(tag);
    if (!table) throw new Error(`TrueType font without a ${tag} table`);
    return table.offset;
  }

  /** The Unicode subtable: format 12 (full repertoire) when present, else format 4 (BMP). */
  private pickCmap(): { format: 4 | 12; offset: number } {
    const v = this.view;
    const cmap = this.table("cmap");
    let best: { format: 4 | 12; offset: number } | null = null;
    for (let i = 0, n = v.getUint16(cmap + 2); i < n; i++) {
      const platform = v.getUint16(cmap + 4 + i * 8);
      const encoding = v.getUint16(cmap + 6 + i * 8);
      const offset = cmap + v.getUint32(cmap + 8 + i * 8);
      const format = v.getUint16(offset);
      const unicode = platform === 0 || (platform === 3 && (encoding === 1 || encoding === 10));
      if (!unicode) continue;
      if (format === 12) return { format: 12, offset };
      if (format === 4 && !best) best = { format: 4, offset };
    }
    if (!best) throw new Error("TrueType font without a Unicode cmap");
    return best;
  }

  private lookup(cp: number): number {
    const v = this.view;
    this.cmapTable ??= this.pickCmap();
    const { format, offset } = this.cmapTable;
    if (format === 12) {
      let lo = 0;
      let hi = v.getUint32(offset + 12) - 1;
      while (lo <= hi) {
        const mid = (lo + hi) >> 1;
        const group = offset + 16 + mid * 12;
        if (cp < v.getUint32(group)) hi = mid - 1;
        else if (cp > v.getUint32(group + 4)) lo = mid + 1;
        else return v.getUint32(group + 8) + cp - v.getUint32(group);
      }
      return 0;
    }
    if (cp > 0xffff) return 0;
    const segX2 = v.getUint16(offset + 6);
    const ends = offset + 14;
    const starts = ends + segX2 + 2;
    const deltas = starts + segX2;
    const rangeOffsets = deltas + segX2;
    let lo = 0;
    let hi = segX2 / 2 - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (cp > v.getUint16(ends + mid * 2)) lo = mid + 1;
      else if (cp < v.getUint16(starts + mid * 2)) hi = mid - 1;
      else {
        const rangeOffset = v.getUint16(rangeOffsets + mid * 2);
        const delta = v.getInt16(deltas + mid * 2);
        if (rangeOffset === 0) return (cp + delta) & 0xffff;
        const glyph = v.getUint16(rangeOffsets + mid * 2 + rangeOffset + (cp - v.getUint16(starts + mid * 2)) * 2);
        return glyph === 0 ? 0 : (glyph + delta) & 0xffff;
      }
    }
    return 0;
  }

  /** The glyph of a code point; 0 (.notdef) when the font has none. */
  glyphId(cp: number): number {
    if (cp < 0x10000) {
      const cached = this.bmp[cp]!;
      if (cached) return cached - 1;
      const gid = this.lookup(cp);
      this.bmp[cp] = gid + 1;
      return gid;
    }
    let gid = this.astral.get(cp);
    if (gid === undefined) {
      gid = this.lookup(cp);
      this.astral.set(cp, gid);
    }
    return gid;
  }

  /** Advance width in font units. */
  advance(gid: number): number {
    const hmtx = this.table("hmtx");
    return this.view.getUint16(hmtx + Math.min(gid, this.numberOfHMetrics - 1) * 4);
  }

  /** Byte range of a glyph's outline in the glyf table (empty for blank glyphs). */
  glyphRange(gid: number): [number, number] {
    const loca = this.table("loca");
    const glyf = this.table("glyf");
    const v = this.view;
    const at = (i: number) => (this.longLoca ? v.getUint32(loca + i * 4) : v.getUint16(loca + i * 2) * 2);
    return [glyf + at(gid), glyf + at(gid + 1)];
  }

  /** Glyphs a composite glyph draws (empty for simple glyphs). */
  components(gid: number): number[] {
    const [start, end] = this.glyphRange(gid);
    if (end - start < 10 || this.view.getInt16(start) >= 0) return [];
    const v = this.view;
    const out: number[] = [];
    let p = start + 10;
    for (;;) {
      const flags = v.getUint16(p);
      out.push(v.getUint16(p + 2));
      p += 4 + (flags & 0x0001 ? 4 : 2);
      if (flags & 0x0008) p += 2;
      else if (flags & 0x0040) p += 4;
      else if (flags & 0x0080) p += 8;
      if (!(flags & 0x0020)) return out;
    }
  }
}
