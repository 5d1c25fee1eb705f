/**
 * Keyword searches that find nothing cached: before each search
 * the client changes a project (PATCH its priority), which moves the search
 * version (migration 0019), so the server ranks the matches afresh. Only the
 * searches are timed. With several clients the writes and searches
 * interleave, and a search that follows another client's search with no
 * write between them shares its ranking; with one client every search is
 * cold.
 */
export async function coldSearches(base: string, auth: Record<string, string>, searchPath: string, projectId: string, clients: number, seconds: number) {
  const latencies: number[] = [];
  let failed = 0;
  let flip = 0;
  const end = performance.now() + seconds * 1000;
  await Promise.all(
    Array.from({ length: clients }, async () => {
      while (performance.now() < end) {
        const write = await fetch(`${base}/api/projects/${projectId}`, {
          method: "PATCH",
          headers: { ...auth, "Content-Type": "application/json" },
          body: JSON.stringify({ priority: flip++ % 2 ? "high" : "medium" }),
        });
        await write.arrayBuffer();
        const t = performance.now();
        const res = await fetch(base + searchPath, { headers: auth });
        await res.arrayBuffer();
        latencies.push(performance.now() - t);
        if (write.status >= 300 || res.status !== 200) failed++;
      }
    }),
  );
  const sorted = [...latencies].sort((a, b) => a - b);
  const q = (f: number) => sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * f))] ?? NaN;
  return { searches: latencies.length, failed, p50: q(0.5), p99: q(0.99), max: sorted.at(-1) ?? NaN };
}
