import { IMAGE_TIMEOUT_SECONDS, imageBoundExceeded, MAX_INPUT_PIXELS } from "~/utils/sharp.server";
import { AppError } from "../errors";
import { unsupported } from "./sniff.server";

/**
 * What a failed decode of an uploaded image answers: 413 when it passed
 * a bound of utils/sharp.server.ts (pixels declared in its header, or
 * decoding time), else 415 (damaged or not an image).
 */
export function undecodableImage(error: unknown, ext: string): AppError {
  const bound = imageBoundExceeded(error);
  if (bound === "pixels") {
    return new AppError(
      "PAYLOAD_TOO_LARGE",
      413,
      `The image is larger than ${MAX_INPUT_PIXELS / 1_000_000} megapixels (width × height); scale it down and try again.`,
      { extra: { limit: MAX_INPUT_PIXELS } },
    );
  }
  if (bound === "time") {
    return new AppError("PAYLOAD_TOO_LARGE", 413, `Decoding the image took longer than ${IMAGE_TIMEOUT_SECONDS} s and was stopped.`, {
      extra: { limit: IMAGE_TIMEOUT_SECONDS * 1000 },
    });
  }
  return unsupported(`The ${ext.toUpperCase()} image could not be decoded: it is damaged or not really an image.`);
}
