import fs from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { TrueTypeFont } from "./truetype";

/**
 * The vendored DejaVu fonts (see fonts/LICENSE): where they live, their bytes
 * and their metrics, all read once per process and kept in memory.
 */

export type FaceName = "regular" | "bold" | "italic" | "mono";
export const FACES: readonly FaceName[] = ["regular", "bold", "italic", "mono"];

const FILES: Record<FaceName, string> = {
  regular: "DejaVuSans.ttf",
  bold: "DejaVuSans-Bold.ttf",
  italic: "DejaVuSans-Oblique.ttf",
  mono: "DejaVuSansMono.ttf",
};

export const POSTSCRIPT_NAMES: Record<FaceName, string> = {
  regular: "DejaVuSans",
  bold: "DejaVuSans-Bold",
  italic: "DejaVuSans-Oblique",
  mono: "DejaVuSansMono",
};

const RELATIVE_DIR = "app/domain/exports/pdf/fonts";

function here() {
  try {
    return path.dirname(fileURLToPath(import.meta.url));
  } catch {
    return process.cwd();
  }
}

/**
 * The fonts folder. Tests and tsx run this file from its source folder; the
 * production build runs bundled code from build/server/ or build/ with the
 * project root as working directory (the image ships app/ as well).
 */
export function fontDir(): string {
  const dir = here();
  const candidates = [
    path.resolve(process.cwd(), RELATIVE_DIR),
    path.join(dir, "fonts"),
    path.resolve(dir, "../..", RELATIVE_DIR),
    path.resolve(dir, "..", RELATIVE_DIR),
  ];
  const found = candidates.find((candidate) => fs.existsSync(path.join(candidate, FILES.regular)));
  if (!found) throw new Error(`PDF fonts not found; looked in ${candidates.join(", ")}`);
  return found;
}

const fonts = new Map<FaceName, TrueTypeFont>();

/** The face's font file, read and indexed once per process. */
export function trueType(face: FaceName): TrueTypeFont {
  let font = fonts.get(face);
  if (!font) {
    font = new TrueTypeFont(new Uint8Array(fs.readFileSync(path.join(fontDir(), FILES[face]))));
    fonts.set(face, font);
  }
  return font;
}

/** Advance widths (in em, so × font size = points) and coverage of one face, cached per code point. */
export class FaceMetrics {
  /** Basic Multilingual Plane: NaN = not looked up yet, -1 = no glyph. */
  private readonly bmp = new Float64Array(0x10000).fill(Number.NaN);
  private readonly astral = new Map<number, number>();

  constructor(readonly font: TrueTypeFont) {}

  private lookup(cp: number) {
    const gid = this.font.glyphId(cp);
    return gid === 0 ? -1 : this.font.advance(gid) / this.font.unitsPerEm;
  }

  /** Width of the code point in em, or -1 when the face has no glyph for it. */
  advance(cp: number): number {
    if (cp < 0x10000) {
      let width = this.bmp[cp]!;
      if (Number.isNaN(width)) {
        width = this.lookup(cp);
        this.bmp[cp] = width;
      }
      return width;
    }
    let width = this.astral.get(cp);
    if (width === undefined) {
      width = this.lookup(cp);
      this.astral.set(cp, width);
    }
    return width;
  }

  has(cp: number) {
    return this.advance(cp) >= 0;
  }
}

const metricsCache = new Map<FaceName, FaceMetrics>();

export function faceMetrics(face: FaceName): FaceMetrics {
  let metrics = metricsCache.get(face);
  if (!metrics) {
    metrics = new FaceMetrics(trueType(face));
    metricsCache.set(face, metrics);
  }
  return metrics;
}
