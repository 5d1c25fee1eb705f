import { promisify } from "node:util";
import zlib from "node:zlib";
import { Zip, type ZipInputFile, ZipPassThrough } from "fflate";
import type { ExportFormat } from "./document";

/** Zip archives of exports (bulk download, scheduled digests): one writer, unique names. */

/** Already compressed: stored as they are. */
export const STORED_FORMATS = new Set<ExportFormat>(["pdf", "docx"]);

const deflateRaw = promisify(zlib.deflateRaw);

/** Unique names inside an archive: `name.ext`, then `name-2.ext` ... (case-insensitive). */
export function namer() {
  const used = new Set<string>();
  return (name: string) => {
    const dot = name.lastIndexOf(".");
    const [stem, ext] = dot > 0 ? [name.slice(0, dot), name.slice(dot)] : [name, ""];
    let candidate = name;
    for (let n = 2; used.has(candidate.toLowerCase()); n++) candidate = `${stem}-${n}${ext}`;
    used.add(candidate.toLowerCase());
    return candidate;
  };
}

/**
 * A zip written as files are added: `onChunk` receives the archive's bytes
 * in order. Deflating runs on libuv's thread pool, not in the event loop
 * (fflate's ZipDeflate is JavaScript: ~20 ms for a long PRD's HTML).
 */
export function zipWriter(onChunk: (chunk: Uint8Array) => void, onError: (error: Error) => void) {
  const zip = new Zip((error, chunk) => (error ? onError(error) : onChunk(chunk)));
  return {
    async add(name: string, data: Uint8Array, stored: boolean) {
      if (stored) {
        const entry = new ZipPassThrough(name);
        zip.add(entry);
        entry.push(data, true);
        return;
      }
      const deflated = await deflateRaw(data, { level: 6 });
      const entry: ZipInputFile = { filename: name, size: data.byteLength, crc: zlib.crc32(data), compression: 8 };
      zip.add(entry);
      entry.ondata!(null, deflated, true);
    },
    end: () => zip.end(),
  };
}

/** A whole archive in memory (for attachments; downloads stream with zipWriter). */
export async function zipBytes(files: { name: string; data: Uint8Array; stored: boolean }[]): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let failed: Error | null = null;
  const writer = zipWriter(
    (chunk) => chunks.push(chunk),
    (error) => (failed = error),
  );
  for (const f of files) await writer.add(f.name, f.data, f.stored);
  writer.end();
  if (failed) throw failed;
  return Buffer.concat(chunks);
}
