import { Unzip, UnzipInflate, unzipSync } from "fflate";
import { AppError } from "../errors";
import { expandsTooFar, MAX_ARCHIVE_ENTRIES, MAX_EXPANDED_BYTES, tooManyParts } from "./parse-bounds.server";
import { feedInSlices } from "./slices.server";
import { unsupported } from "./sniff.server";

/**
 * A .docx is a zip: before any parser opens it, (1) its central directory
 * (read by fflate without inflating anything) must declare at most
 * `maxEntries` parts and `maxBytes` of content in all, and (2) because
 * declared sizes can lie, every part is then inflated with fflate's
 * streaming Unzip a slice at a time, the output counted and dropped, and
 * the archive refused as soon as the count passes `maxBytes`. Neither step
 * keeps the expanded bytes. A zip fflate cannot read is 415.
 */

const damaged = () => unsupported("The Word document could not be read: it is damaged or not really a .docx file.");

export async function assertZipWithinBounds(data: Uint8Array, maxBytes = MAX_EXPANDED_BYTES, maxEntries = MAX_ARCHIVE_ENTRIES) {
  checkDirectory(data, maxBytes, maxEntries);
  await checkInflated(data, maxBytes, maxEntries);
}

function checkDirectory(data: Uint8Array, maxBytes: number, maxEntries: number) {
  let entries = 0;
  let declared = 0;
  try {
    unzipSync(data, {
      filter(file) {
        if (++entries > maxEntries) throw tooManyParts(maxEntries);
        declared += file.originalSize;
        if (declared > maxBytes) throw expandsTooFar(maxBytes);
        return false;
      },
    });
  } catch (error) {
    throw error instanceof AppError ? error : damaged();
  }
}

async function checkInflated(data: Uint8Array, maxBytes: number, maxEntries: number) {
  let inflated = 0;
  let entries = 0;
  let refusal: AppError | null = null;
  const unzip = new Unzip((file) => {
    if (++entries > maxEntries) refusal ??= tooManyParts(maxEntries);
    if (refusal) return;
    // An entry that fails to inflate part-way counts what it gave; the parser would get no more.
    file.ondata = (error, chunk) => {
      if (error || refusal) return;
      inflated += chunk.byteLength;
      if (inflated > maxBytes) refusal = expandsTooFar(maxBytes);
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  try {
    await feedInSlices(data, (slice, last) => {
      unzip.push(slice, last);
      return !refusal;
    });
  } catch {
    throw refusal ?? damaged();
  }
  if (refusal) throw refusal;
}
