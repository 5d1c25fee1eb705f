/** sharp (libvips, ~30 MB resident) loads on the first image an upload brings, not at start-up. */
export const loadSharp = async () => (await import("sharp")).default;
