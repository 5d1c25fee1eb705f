import type { SharpOptions } from "sharp";

/** sharp (libvips, ~30 MB resident) loads on the first image an upload brings, not at start-up. */
export const loadSharp = async () => (await import("sharp")).default;

/**
 * Bounds on decoding an image someone sent: at most MAX_INPUT_PIXELS
 * (width × height as the file declares it, checked from the header before
 * any pixel is decoded; 40 MP is a 7300 × 5500 photo, and 160 MB as RGBA),
 * only the first frame of an animated GIF or WebP (`animated: false`,
 * so the limit holds per frame and frames are never stacked), and at most
 * IMAGE_TIMEOUT_SECONDS of processing.
 */
export const MAX_INPUT_PIXELS = 40_000_000;
export const IMAGE_TIMEOUT_SECONDS = 10;

/** A sharp pipeline over untrusted bytes, with the bounds above. */
export async function openUntrustedImage(data: Buffer, options: Omit<SharpOptions, "limitInputPixels" | "animated" | "pages"> = {}) {
  const sharp = await loadSharp();
  return sharp(data, { failOn: "error", ...options, limitInputPixels: MAX_INPUT_PIXELS, animated: false, pages: 1 }).timeout({
    seconds: IMAGE_TIMEOUT_SECONDS,
  });
}

/** sharp's error for an image over MAX_INPUT_PIXELS ("Input image exceeds pixel limit") or over the timeout ("timeout: 40% complete"). */
export function imageBoundExceeded(error: unknown): "pixels" | "time" | null {
  const message = error instanceof Error ? error.message : "";
  if (/exceeds pixel limit/i.test(message)) return "pixels";
  if (/^timeout: \d+% complete/i.test(message)) return "time";
  return null;
}
