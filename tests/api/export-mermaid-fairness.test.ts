import { afterAll, afterEach, describe, expect, it } from "vitest";
import { clearDiagramCache, closeDiagramBrowser, configureDiagramRenderer, renderDiagrams } from "~/domain/exports/mermaid.server";
import { FairQueue } from "~/domain/exports/mermaid-queue.server";

/**
 * One diagram renderer shared by every organization (security review): one
 * organization's large export must not stall another's, a hanging diagram
 * must not stall anybody, and a diagram never sees what an earlier one (of
 * another organization) left in the page. Assertions are on order and
 * results, never on elapsed time.
 */

const ORG_A = "org-fair-a";
const ORG_B = "org-fair-b";
const svgText = (svg: string) => svg.replace(/<style>[\s\S]*?<\/style>/g, "").replace(/<[^>]+>/g, "");

/** A flowchart of `steps` labelled nodes (a few hundred ms each to render). */
function largeFlow(n: number, steps = 25) {
  const lines = ["flowchart TD"];
  for (let i = 0; i < steps; i++) lines.push(`  a${n}s${i}[Batch ${n} step ${i} checks the order] --> a${n}s${i + 1}{Step ${i} done?}`);
  return lines.join("\n");
}

/**
 * Run in every page after the real mermaid loads: wraps mermaid.render so
 * that a `%% test:hang` diagram never returns (a busy loop, like a
 * pathological layout), `%% test:leave` leaves a global and a DOM element
 * behind in its page, and `%% test:probe` draws what it finds of them.
 */
const PAGE_SCRIPT = `(() => {
  const render = mermaid.render.bind(mermaid);
  mermaid.render = async (id, text, ...rest) => {
    if (text.includes("%% test:hang")) for (;;) {}
    if (text.includes("%% test:leave")) {
      window.leftByEarlierDiagram = "org-a";
      const div = document.createElement("div");
      div.id = "left-behind";
      document.body.appendChild(div);
    }
    if (text.includes("%% test:probe")) {
      const seen = [window.leftByEarlierDiagram ? "GLOBAL" : "", document.getElementById("left-behind") ? "ELEMENT" : ""].filter(Boolean);
      text = "flowchart LR\\n  P[probe saw " + (seen.join(" and ") || "nothing") + "]";
    }
    return render(id, text, ...rest);
  };
})()`;

afterEach(async () => {
  await configureDiagramRenderer(null);
  clearDiagramCache();
});
afterAll(async () => {
  await closeDiagramBrowser();
});

describe("FairQueue", () => {
  it("serves organizations round-robin: B's one job runs right after A's running job, not after A's batch", async () => {
    const started: string[] = [];
    let release: (() => void)[] = [];
    const queue = new FairQueue<string, string>(
      (item) => {
        started.push(item);
        return new Promise((resolve) => release.push(() => resolve(item)));
      },
      { concurrency: 1, maxPerTenant: 100, maxTotal: 1000 },
    );
    const a = Array.from({ length: 40 }, (_, i) => queue.push("A", `A${i}`)!);
    const b = queue.push("B", "B0")!;
    const c = [queue.push("C", "C0")!, queue.push("C", "C1")!];
    for (let step = 0; step < 43; step++) {
      const next = release;
      release = [];
      next.forEach((r) => r());
      await new Promise((resolve) => setImmediate(resolve));
    }
    await Promise.all([...a, b, ...c]);
    // A0 was running when B and C arrived; then every lane in turn.
    expect(started.slice(0, 6)).toEqual(["A0", "B0", "C0", "A1", "C1", "A2"]);
    expect(started.filter((s) => s.startsWith("A"))).toEqual(Array.from({ length: 40 }, (_, i) => `A${i}`));
  });

  it("bounds what one organization (and everybody) may have queued", () => {
    const queue = new FairQueue<number, number>(() => new Promise(() => {}), { concurrency: 1, maxPerTenant: 3, maxTotal: 5 });
    expect([1, 2, 3, 4].map((n) => queue.push("A", n) !== null)).toEqual([true, true, true, false]);
    expect(queue.pending("A")).toBe(3);
    expect([1, 2, 3].map((n) => queue.push("B", n) !== null)).toEqual([true, true, false]);
  });
});

describe("renderDiagrams between organizations", () => {
  it("renders B's one diagram before A's batch of 20 large ones is done", async () => {
    const done: string[] = [];
    const batch = Array.from({ length: 20 }, (_, i) => largeFlow(i));
    const single = "flowchart LR\n  B1[Org B's only diagram] --> B2[Done]";
    const a = renderDiagrams(ORG_A, batch).then((m) => (done.push("A"), m));
    const b = renderDiagrams(ORG_B, [single]).then((m) => (done.push("B"), m));
    const [aDiagrams, bDiagrams] = await Promise.all([a, b]);
    expect(done).toEqual(["B", "A"]);
    expect(svgText(bDiagrams.get(single)!.svg)).toContain("Org B's only diagram");
    expect([...aDiagrams.values()].every((d) => d !== null)).toBe(true);
  }, 180_000);

  it("answers a hanging diagram with the fallback and still renders the ones after it, and other organizations'", async () => {
    await configureDiagramRenderer({ pageScript: PAGE_SCRIPT, renderTimeoutMs: 3_000 });
    const hang = "flowchart LR\n  H1[Never finishes] --> H2\n%% test:hang";
    const after = "flowchart LR\n  N1[Next diagram] --> N2[Still rendered]";
    const other = "flowchart LR\n  O1[Other organization] --> O2[Rendered]";
    const [aDiagrams, bDiagrams] = await Promise.all([renderDiagrams(ORG_A, [hang, after]), renderDiagrams(ORG_B, [other])]);
    expect(aDiagrams.get(hang)).toBeNull();
    expect(svgText(aDiagrams.get(after)!.svg)).toContain("Still rendered");
    expect(svgText(bDiagrams.get(other)!.svg)).toContain("Other organization");
    // The browser survived: a later request renders as usual.
    const later = "flowchart LR\n  L1[Later] --> L2[Fine]";
    expect((await renderDiagrams(ORG_B, [later])).get(later)).not.toBeNull();
  }, 120_000);

  it("gives each diagram a fresh page: nothing a previous (other organization's) diagram left is visible", async () => {
    await configureDiagramRenderer({ pageScript: PAGE_SCRIPT });
    const leave = "flowchart LR\n  X1[Org A leaves state] --> X2\n%% test:leave";
    const probe = "flowchart LR\n  P1[probe] --> P2\n%% test:probe";
    expect((await renderDiagrams(ORG_A, [leave])).get(leave)).not.toBeNull();
    const seen = svgText((await renderDiagrams(ORG_B, [probe])).get(probe)!.svg);
    expect(seen).toContain("probe saw nothing");
    // Not even between two diagrams of the same document.
    const again = `${probe}\n%% same document`;
    const both = await renderDiagrams(ORG_A, [`${leave}\n%% same document`, again]);
    expect(svgText(both.get(again)!.svg)).toContain("probe saw nothing");
  }, 120_000);

  it("renders at most 200,000 characters of source per request; the rest show their source", async () => {
    const padded = (n: number) => `flowchart LR\n  S${n}[Source ${n}] --> T${n}\n%% ${"x".repeat(45_000)}`;
    const sources = [1, 2, 3, 4, 5].map(padded);
    const diagrams = await renderDiagrams(ORG_A, sources);
    expect(sources.map((s) => diagrams.get(s) !== null)).toEqual([true, true, true, true, false]);
  }, 120_000);
});
