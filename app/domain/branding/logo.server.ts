import crypto from "node:crypto";
import { AppError } from "../errors";
import { undecodableImage } from "../uploads/image-bounds.server";
import { sniffImage } from "../uploads/sniff.server";
import { MAX_LOGO_BYTES, MAX_LOGO_DIMENSION } from "./branding.schema";
import { openUntrustedImage } from "~/utils/sharp.server";

/**
 * A logo is never stored as sent: the bytes are sniffed (SVG and anything
 * that is not a raster image are refused), decoded and re-encoded as PNG by
 * sharp at most 512 px a side with all metadata dropped. Decoding is
 * bounded as for every uploaded image (utils/sharp.server.ts): 413 past it.
 */
export async function reencodeLogo(data: Buffer) {
  if (data.byteLength > MAX_LOGO_BYTES) throw new AppError("PAYLOAD_TOO_LARGE", 413, "The logo is larger than 2 MB");
  const detected = await sniffImage(data);
  try {
    const { data: out, info } = await (await openUntrustedImage(data))
      .rotate()
      .resize({ width: MAX_LOGO_DIMENSION, height: MAX_LOGO_DIMENSION, fit: "inside", withoutEnlargement: true })
      .png({ compressionLevel: 9 })
      .toBuffer({ resolveWithObject: true });
    const sha256 = crypto.createHash("sha256").update(out).digest("hex");
    return { data: out, width: info.width, height: info.height, sha256 };
  } catch (error) {
    throw undecodableImage(error, detected.ext);
  }
}

/** Decodes the `logo` field of the JSON branding body: a data: URL or bare base64. */
export function decodeBase64Logo(value: string): Buffer {
  const m = /^data:([^;,]*)(;base64)?,(.*)$/s.exec(value.trim());
  const b64 = m ? m[3]! : value.trim();
  if (m && !m[2])
    throw new AppError("VALIDATION_ERROR", 400, "The logo data URL must be base64", { details: [{ path: "logo", message: "Use a base64 data: URL" }] });
  if (!/^[A-Za-z0-9+/=\s]+$/.test(b64)) {
    throw new AppError("VALIDATION_ERROR", 400, "The logo must be a base64 image", { details: [{ path: "logo", message: "Not valid base64" }] });
  }
  return Buffer.from(b64, "base64");
}
