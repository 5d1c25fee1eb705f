import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

/**
 * A real small filesystem for full-disk tests: a tmpfs of `size` (`2m`,
 * `8m`) mounted on a fresh directory. Mounting needs root (CAP_SYS_ADMIN);
 * where it is impossible, `reason` says why and the caller skips.
 */
export interface SmallDisk {
  dir: string;
  /** Writes a filler file next to the data until the filesystem refuses (ENOSPC). */
  fill(): void;
  /** Deletes the filler. */
  free(): void;
  unmount(): void;
}

export function mountSmallDisk(size: string): { disk: SmallDisk; reason?: undefined } | { disk?: undefined; reason: string } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "prd-small-disk-"));
  try {
    execFileSync("mount", ["-t", "tmpfs", "-o", `size=${size},mode=0700`, "tmpfs", dir], { stdio: "pipe" });
  } catch (error) {
    fs.rmSync(dir, { recursive: true, force: true });
    const stderr = (error as { stderr?: Buffer }).stderr?.toString().trim();
    return { reason: `cannot mount a tmpfs here (needs root with CAP_SYS_ADMIN): ${stderr || String(error)}` };
  }
  const filler = path.join(dir, "filler.bin");
  const chunk = Buffer.alloc(64 * 1024, 7);
  return {
    disk: {
      dir,
      fill() {
        const fd = fs.openSync(filler, "a");
        try {
          // Big chunks, then single blocks, so not even a page is left free.
          for (const size of [chunk.length, 4096, 512]) {
            for (;;) {
              try {
                fs.writeSync(fd, chunk, 0, size);
              } catch (error) {
                if ((error as NodeJS.ErrnoException).code !== "ENOSPC") throw error;
                break;
              }
            }
          }
        } finally {
          fs.closeSync(fd);
        }
      },
      free() {
        fs.rmSync(filler, { force: true });
      },
      unmount() {
        execFileSync("umount", [dir], { stdio: "pipe" });
        fs.rmSync(dir, { recursive: true, force: true });
      },
    },
  };
}
