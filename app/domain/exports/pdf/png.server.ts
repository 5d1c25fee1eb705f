import { deflateSync, inflateSync } from "node:zlib";
import { type PDFDocument, PDFHexString, type PDFRef } from "pdf-lib";

/**
 * PNG images into the PDF without pdf-lib's pure-JS decoder (~90 ms for one
 * 640×360 image; seconds for large diagrams). Opaque 8-bit PNGs are copied
 * as they are (PDF reads PNG's compressed rows with predictor 15); PNGs with
 * alpha are inflated by zlib, unfiltered, and split into colour and soft mask.
 * Anything else (16-bit, interlaced, colour-key transparency) returns null
 * and goes through pdf-lib.
 */

interface Png {
  width: number;
  height: number;
  bitDepth: number;
  colorType: number;
  interlace: number;
  palette: Uint8Array | null;
  transparency: Uint8Array | null;
  data: Buffer;
}

const SIGNATURE = [137, 80, 78, 71, 13, 10, 26, 10];

function parse(bytes: Uint8Array): Png | null {
  if (bytes.length < 33 || SIGNATURE.some((b, i) => bytes[i] !== b)) return null;
  const view = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const idat: Buffer[] = [];
  const png: Png = { width: 0, height: 0, bitDepth: 0, colorType: 0, interlace: 0, palette: null, transparency: null, data: Buffer.alloc(0) };
  for (let p = 8; p + 8 <= view.length; ) {
    const length = view.readUInt32BE(p);
    const type = view.toString("latin1", p + 4, p + 8);
    const body = view.subarray(p + 8, p + 8 + length);
    if (type === "IHDR") {
      png.width = body.readUInt32BE(0);
      png.height = body.readUInt32BE(4);
      png.bitDepth = body[8]!;
      png.colorType = body[9]!;
      png.interlace = body[12]!;
    } else if (type === "PLTE") png.palette = body;
    else if (type === "tRNS") png.transparency = body;
    else if (type === "IDAT") idat.push(body);
    else if (type === "IEND") break;
    p += 12 + length;
  }
  if (!png.width || !png.height || idat.length === 0) return null;
  png.data = idat.length === 1 ? idat[0]! : Buffer.concat(idat);
  return png;
}

function paeth(a: number, b: number, c: number) {
  const p = a + b - c;
  const pa = Math.abs(p - a);
  const pb = Math.abs(p - b);
  const pc = Math.abs(p - c);
  return pa <= pb && pa <= pc ? a : pb <= pc ? b : c;
}

/** PNG scanline filters undone (8-bit samples, `bpp` bytes a pixel). */
function unfilter(raw: Uint8Array, width: number, height: number, bpp: number): Uint8Array {
  const stride = width * bpp;
  const out = new Uint8Array(stride * height);
  let p = 0;
  for (let y = 0; y < height; y++) {
    const filter = raw[p++];
    const row = y * stride;
    const prev = row - stride;
    for (let x = 0; x < stride; x++) {
      const v = raw[p++]!;
      const a = x >= bpp ? out[row + x - bpp]! : 0;
      const b = y > 0 ? out[prev + x]! : 0;
      let value = v;
      if (filter === 1) value = v + a;
      else if (filter === 2) value = v + b;
      else if (filter === 3) value = v + ((a + b) >> 1);
      else if (filter === 4) value = v + paeth(a, b, x >= bpp && y > 0 ? out[prev + x - bpp]! : 0);
      out[row + x] = value & 255;
    }
  }
  return out;
}

const hex = (bytes: Uint8Array) => PDFHexString.of(Buffer.from(bytes).toString("hex"));

export function embedPng(pdf: PDFDocument, bytes: Uint8Array): { ref: PDFRef; width: number; height: number } | null {
  const png = parse(bytes);
  if (!png || png.bitDepth !== 8 || png.interlace !== 0) return null;
  const { context } = pdf;
  const { width, height, colorType, palette, transparency } = png;
  const xobject = (data: Uint8Array, extra: Record<string, unknown>) =>
    context.register(
      context.stream(data, { Type: "XObject", Subtype: "Image", Width: width, Height: height, BitsPerComponent: 8, Filter: "FlateDecode", ...extra } as never),
    );
  const colors = colorType === 2 ? 3 : 1;
  if ((colorType === 0 || colorType === 2 || (colorType === 3 && palette)) && !transparency) {
    const colorSpace =
      colorType === 3 ? context.obj(["Indexed", "DeviceRGB", palette!.length / 3 - 1, hex(palette!)]) : colorType === 2 ? "DeviceRGB" : "DeviceGray";
    return {
      ref: xobject(png.data, { ColorSpace: colorSpace, DecodeParms: { Predictor: 15, Colors: colors, BitsPerComponent: 8, Columns: width } }),
      width,
      height,
    };
  }
  if (colorType !== 4 && colorType !== 6 && !(colorType === 3 && palette)) return null;

  const bpp = colorType === 6 ? 4 : colorType === 4 ? 2 : 1;
  const pixels = unfilter(inflateSync(png.data), width, height, bpp);
  const count = width * height;
  const rgb = colorType === 4 ? null : new Uint8Array(count * 3);
  const gray = colorType === 4 ? new Uint8Array(count) : null;
  const alpha = new Uint8Array(count);
  let opaque = true;
  for (let i = 0; i < count; i++) {
    let a: number;
    if (colorType === 6) {
      rgb![i * 3] = pixels[i * 4]!;
      rgb![i * 3 + 1] = pixels[i * 4 + 1]!;
      rgb![i * 3 + 2] = pixels[i * 4 + 2]!;
      a = pixels[i * 4 + 3]!;
    } else if (colorType === 4) {
      gray![i] = pixels[i * 2]!;
      a = pixels[i * 2 + 1]!;
    } else {
      const index = pixels[i]!;
      rgb![i * 3] = palette![index * 3] ?? 0;
      rgb![i * 3 + 1] = palette![index * 3 + 1] ?? 0;
      rgb![i * 3 + 2] = palette![index * 3 + 2] ?? 0;
      a = transparency?.[index] ?? 255;
    }
    alpha[i] = a;
    if (a !== 255) opaque = false;
  }
  const mask = opaque ? null : xobject(deflateSync(alpha), { ColorSpace: "DeviceGray" });
  const ref = xobject(deflateSync(rgb ?? gray!), { ColorSpace: rgb ? "DeviceRGB" : "DeviceGray", ...(mask ? { SMask: mask } : {}) });
  return { ref, width, height };
}
