import { AppError } from "../errors";

/**
 * Bounds on what reading one uploaded document may cost, whatever its size
 * on the wire (decompression bombs: a 400 KB .docx can hold 400 MB of XML,
 * a PDF stream can inflate a thousandfold). Each refusal is 413
 * PAYLOAD_TOO_LARGE and names the bound; nothing is stored or counted.
 *
 * - `MAX_EXPANDED_BYTES`: the content a document may expand to. A .docx's
 *   parts (the zip directory's declared sizes, then the bytes actually
 *   inflated, counted while inflating) and a PDF's Flate-compressed
 *   non-image streams (counted while inflating) stay under it. Real
 *   documents under the 10 MB upload limit expand to a few MB.
 * - `MAX_ARCHIVE_ENTRIES`: parts in a .docx (real ones have tens).
 * - `parseBounds`: the parse itself (pdf.js, mammoth) runs in a worker
 *   thread with a JS heap limit, a limit on its buffers (watched, since
 *   V8's heap limit does not count ArrayBuffers) and a wall-clock limit;
 *   at most `concurrency` run at once. Tests lower them.
 */

export const MAX_EXPANDED_BYTES = 50 * 1024 * 1024;
export const MAX_ARCHIVE_ENTRIES = 2_000;

export const parseBounds = {
  timeoutMs: 20_000,
  /** mammoth holds about 60 times a .docx's XML: 384 MB reads some 5 MB of XML (hundreds of pages). */
  heapMb: 384,
  bufferMb: 128,
  concurrency: 2,
};

const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

export const expandsTooFar = (limit = MAX_EXPANDED_BYTES) =>
  new AppError(
    "PAYLOAD_TOO_LARGE",
    413,
    `The document expands to more than ${mb(limit)} of content; it cannot be imported. Split it or remove embedded files, then try again.`,
    { extra: { limit } },
  );

export const tooManyParts = (limit = MAX_ARCHIVE_ENTRIES) =>
  new AppError("PAYLOAD_TOO_LARGE", 413, `The document has more than ${limit.toLocaleString("en-US")} parts; it cannot be imported.`, {
    extra: { limit },
  });

const duration = (ms: number) => (ms < 1000 ? `${ms} ms` : `${Math.round(ms / 100) / 10} s`);

export const parseTooSlow = (ms: number) =>
  new AppError("PAYLOAD_TOO_LARGE", 413, `Reading the document took longer than ${duration(ms)} and was stopped; it cannot be imported.`, {
    extra: { limit: ms },
  });

export const parseTooHungry = (limitMb: number) =>
  new AppError("PAYLOAD_TOO_LARGE", 413, `Reading the document needed more than ${limitMb} MB of memory and was stopped; it cannot be imported.`, {
    extra: { limit: limitMb * 1024 * 1024 },
  });
