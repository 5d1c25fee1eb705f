import { Inflate } from "fflate";
import { expandsTooFar, MAX_EXPANDED_BYTES } from "./parse-bounds.server";
import { feedInSlices } from "./slices.server";

/**
 * Before pdf.js reads a PDF: every stream that starts with a zlib header
 * (FlateDecode, the filter of nearly every stream and of the classic bomb)
 * is inflated with fflate a slice at a time, the output counted and
 * dropped; over `maxBytes` in all is 413. Images and attached files are
 * skipped: text extraction never decodes them. Streams this check cannot
 * see (another filter first, an encrypted file, a stream disguised as an
 * image) are still bounded by the parse worker's memory and time limits.
 */

/** The `stream` keyword (not `endstream`) and the end of its line. */
const STREAM_KEYWORD = /(?<![A-Za-z0-9])stream[ \t]*(?:\r\n|\r|\n)/g;
/** Dictionaries of streams text extraction never decodes: images and attached files. */
const NOT_READ_FOR_TEXT = /\/(?:Subtype\s*\/Image|Type\s*\/EmbeddedFile)(?![A-Za-z0-9])/;
const DIRECT_LENGTH = /\/Length\s+(\d+)(?!\s+\d+\s+R)/;
/** How far back from `stream` the stream's dictionary is looked for. */
const DICT_WINDOW = 4096;

export async function assertPdfWithinBounds(data: Uint8Array, maxBytes = MAX_EXPANDED_BYTES) {
  const text = Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString("latin1");
  let total = 0;
  for (const match of text.matchAll(STREAM_KEYWORD)) {
    const start = match.index + match[0].length;
    const dict = dictionaryBefore(text, match.index);
    if (NOT_READ_FOR_TEXT.test(dict) || !isZlibHeader(data, start)) continue;
    total += await inflatedSize(data.subarray(start + 2, streamEnd(text, dict, start)), maxBytes - total);
    if (total > maxBytes) throw expandsTooFar(maxBytes);
  }
}

function dictionaryBefore(text: string, keyword: number) {
  const from = Math.max(0, keyword - DICT_WINDOW);
  const obj = text.lastIndexOf("obj", keyword);
  return text.slice(Math.max(from, obj), keyword);
}

/** pdf.js trusts /Length when `endstream` follows it, else looks for `endstream`: count over the longer of the two. */
function streamEnd(text: string, dict: string, start: number) {
  const found = text.indexOf("endstream", start);
  const declared = DIRECT_LENGTH.exec(dict);
  const byLength = declared ? start + Number(declared[1]) : -1;
  const end = Math.max(found, byLength);
  return end < start ? text.length : Math.min(end, text.length);
}

function isZlibHeader(data: Uint8Array, at: number) {
  const cmf = data[at];
  const flg = data[at + 1];
  if (cmf === undefined || flg === undefined) return false;
  return (cmf & 0x0f) === 8 && cmf >> 4 <= 7 && (cmf * 256 + flg) % 31 === 0 && (flg & 0x20) === 0;
}

/** Bytes a raw DEFLATE stream inflates to, counting stops just past `cap`; a broken stream counts what it gave. */
async function inflatedSize(deflated: Uint8Array, cap: number) {
  let size = 0;
  let broken = false;
  const inflater = new Inflate((chunk) => {
    size += chunk.byteLength;
  });
  await feedInSlices(deflated, (slice, last) => {
    try {
      inflater.push(slice, last);
    } catch {
      broken = true;
    }
    return !broken && size <= cap;
  });
  return size;
}
