import type { TrueTypeFont } from "./truetype";

/**
 * A TrueType subset for embedding (PDF FontFile2): only the outlines of the
 * glyphs a document uses (and the glyphs composite ones are built from).
 * Glyph ids stay as they are, so text can be encoded with the font's own
 * ids (CIDToGIDMap Identity) before the subset is made; unused glyphs are
 * empty. Tables: those a PDF TrueType font needs (head, hhea, maxp, hmtx,
 * loca, glyf and the hinting tables cvt, fpgm, prep).
 */

const KEEP = ["cvt ", "fpgm", "glyf", "head", "hhea", "hmtx", "loca", "maxp", "prep"];

function checksum(bytes: Uint8Array) {
  const padded = bytes.length % 4 ? new Uint8Array(bytes.length + 4 - (bytes.length % 4)) : bytes;
  if (padded !== bytes) padded.set(bytes);
  const view = new DataView(padded.buffer, padded.byteOffset, padded.byteLength);
  let sum = 0;
  for (let i = 0; i < padded.length; i += 4) sum = (sum + view.getUint32(i)) >>> 0;
  return sum;
}

/** `used` and every glyph they are composed of, plus .notdef. */
export function glyphClosure(font: TrueTypeFont, used: Iterable<number>): Set<number> {
  const all = new Set<number>();
  const stack = [0, ...used];
  while (stack.length > 0) {
    const gid = stack.pop()!;
    if (all.has(gid)) continue;
    all.add(gid);
    stack.push(...font.components(gid));
  }
  return all;
}

export function subsetTrueType(font: TrueTypeFont, used: Iterable<number>): Uint8Array {
  const keep = glyphClosure(font, used);
  const source = font.bytes;

  // glyf with the kept outlines (4-byte aligned), loca in the long format.
  const ranges: [number, number][] = [];
  let glyfLength = 0;
  for (let gid = 0; gid < font.numGlyphs; gid++) {
    const range = keep.has(gid) ? font.glyphRange(gid) : null;
    const length = range ? range[1] - range[0] : 0;
    ranges.push(range ?? [0, 0]);
    glyfLength += (length + 3) & ~3;
  }
  const glyf = new Uint8Array(glyfLength);
  const loca = new Uint8Array((font.numGlyphs + 1) * 4);
  const locaView = new DataView(loca.buffer);
  let at = 0;
  for (let gid = 0; gid < font.numGlyphs; gid++) {
    locaView.setUint32(gid * 4, at);
    const [start, end] = ranges[gid]!;
    if (end > start) glyf.set(source.subarray(start, end), at);
    at += (end - start + 3) & ~3;
  }
  locaView.setUint32(font.numGlyphs * 4, at);

  const tables = new Map<string, Uint8Array>();
  for (const tag of KEEP) {
    const table = font.tables.get(tag);
    if (tag === "glyf") tables.set(tag, glyf);
    else if (tag === "loca") tables.set(tag, loca);
    else if (table) tables.set(tag, source.slice(table.offset, table.offset + table.length));
  }
  const head = tables.get("head")!;
  const headView = new DataView(head.buffer, head.byteOffset, head.byteLength);
  headView.setUint32(8, 0);
  headView.setInt16(50, 1);

  // The sfnt: directory, then the tables (sorted by tag, 4-byte aligned).
  const tags = [...tables.keys()].sort();
  const n = tags.length;
  const headerLength = 12 + n * 16;
  const total = tags.reduce((sum, tag) => sum + ((tables.get(tag)!.length + 3) & ~3), headerLength);
  const out = new Uint8Array(total);
  const view = new DataView(out.buffer);
  const power = 2 ** Math.floor(Math.log2(n));
  view.setUint32(0, 0x00010000);
  view.setUint16(4, n);
  view.setUint16(6, power * 16);
  view.setUint16(8, Math.log2(power));
  view.setUint16(10, n * 16 - power * 16);
  let offset = headerLength;
  let headOffset = 0;
  tags.forEach((tag, i) => {
    const data = tables.get(tag)!;
    const record = 12 + i * 16;
    for (let k = 0; k < 4; k++) out[record + k] = tag.charCodeAt(k);
    view.setUint32(record + 4, checksum(data));
    view.setUint32(record + 8, offset);
    view.setUint32(record + 12, data.length);
    out.set(data, offset);
    if (tag === "head") headOffset = offset;
    offset += (data.length + 3) & ~3;
  });
  view.setUint32(headOffset + 8, (0xb1b0afba - checksum(out)) >>> 0);
  return out;
}
