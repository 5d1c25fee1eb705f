/**
 * Feeds bytes to a streaming decoder a small slice at a time, so one call
 * can produce at most about a thousand times the slice (DEFLATE's best
 * ratio is 1032:1), and gives the event loop a turn every few slices so a
 * large file never holds up other requests. `push` returns false to stop.
 */
export const SLICE_BYTES = 8 * 1024;
const SLICES_PER_TURN = 64;

export async function feedInSlices(data: Uint8Array, push: (slice: Uint8Array, last: boolean) => boolean) {
  for (let offset = 0, n = 0; offset < data.byteLength; offset += SLICE_BYTES, n++) {
    const end = Math.min(offset + SLICE_BYTES, data.byteLength);
    if (!push(data.subarray(offset, end), end === data.byteLength)) return;
    if (n % SLICES_PER_TURN === SLICES_PER_TURN - 1) await new Promise<void>((resolve) => setImmediate(resolve));
  }
}
