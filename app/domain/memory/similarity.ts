/**
 * Near-duplicate detection for memories: two statements are near-duplicates
 * when their word sets (lower-cased, without very common words) overlap by
 * at least 80% (Jaccard), or one contains the other.
 */

const STOP = new Set(
  "a an and are as at be by for from has have i in is it its of on or our prefer prefers that the their this to us we with you your".split(" "),
);

export function words(text: string) {
  return new Set(
    text
      .toLowerCase()
      .normalize("NFKD")
      .replace(/[\u0300-\u036f]/g, "")
      .split(/[^\p{L}\p{N}]+/u)
      .filter((w) => w && !STOP.has(w)),
  );
}

export function jaccard(a: Set<string>, b: Set<string>) {
  if (!a.size && !b.size) return 1;
  let shared = 0;
  for (const w of a) if (b.has(w)) shared++;
  return shared / (a.size + b.size - shared);
}

export function isNearDuplicate(a: string, b: string, threshold = 0.8) {
  const na = a.trim().toLowerCase();
  const nb = b.trim().toLowerCase();
  if (na === nb || (na.length > 12 && nb.includes(na)) || (nb.length > 12 && na.includes(nb))) return true;
  return jaccard(words(a), words(b)) >= threshold;
}
