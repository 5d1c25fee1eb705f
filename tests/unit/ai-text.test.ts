import { describe, expect, it } from "vitest";
import { chunkText, fenceFilter, stripOuterFence } from "~/ai/text";
import { replaceSection, splitSections } from "~/utils/md-sections";

describe("chunkText", () => {
  it("splits at line ends into pieces that concatenate to the input", () => {
    const text = Array.from({ length: 40 }, (_, i) => `Line ${i} ${"word ".repeat(i % 7)}`).join("\n");
    const pieces = chunkText(text, 80);
    expect(pieces.join("")).toBe(text);
    expect(pieces.length).toBeGreaterThan(5);
    for (const p of pieces) expect(p.length).toBeLessThanOrEqual(80 + 40);
  });

  it("cuts a very long line at spaces and keeps every character", () => {
    const text = "lorem ipsum ".repeat(100);
    const pieces = chunkText(text, 50);
    expect(pieces.join("")).toBe(text);
    expect(Math.max(...pieces.map((p) => p.length))).toBeLessThanOrEqual(60);
  });

  it("handles empty text", () => {
    expect(chunkText("")).toEqual([]);
  });
});

describe("fenceFilter", () => {
  it("drops Markdown fence lines however the stream is cut", () => {
    const source = '```mermaid\nflowchart TD\n  n1["Start"] --> n2["End"]\n```\n';
    for (let size = 1; size <= source.length; size++) {
      const filter = fenceFilter();
      let out = "";
      for (let i = 0; i < source.length; i += size) out += filter.push(source.slice(i, i + size));
      out += filter.flush();
      expect(out, `chunk size ${size}`).toBe('flowchart TD\n  n1["Start"] --> n2["End"]\n');
    }
  });

  it("passes unfenced text through unchanged and drops leading blank lines", () => {
    const filter = fenceFilter();
    expect(filter.push("\n\nsequenceDiagram\n  A->>B: hi") + filter.flush()).toBe("sequenceDiagram\n  A->>B: hi");
  });
});

describe("stripOuterFence", () => {
  it("unwraps a fenced JSON answer and trims a plain one", () => {
    expect(stripOuterFence('```json\n{"a":1}\n```')).toBe('{"a":1}');
    expect(stripOuterFence('  {"a":1}\n')).toBe('{"a":1}');
  });
});

describe("splitSections / replaceSection", () => {
  const doc = "# Title\n\nIntro\n\n## Problem\nSlow.\n\n```\n## not a heading\n```\n\n## Goals\n- Fast\n";

  it("cuts at level-2 headings outside code and joins back to the document", () => {
    const parts = splitSections(doc);
    expect(parts.map((p) => p.title)).toEqual(["", "Problem", "Goals"]);
    expect(parts.map((p) => p.text).join("")).toBe(doc);
  });

  it("replaces one section and leaves the others", () => {
    const next = replaceSection(doc, 1, "## Problem\nCheckout takes 9 steps.");
    expect(next).toContain("## Problem\nCheckout takes 9 steps.\n\n## Goals\n- Fast\n");
    expect(next.startsWith("# Title\n\nIntro\n\n")).toBe(true);
    expect(replaceSection(doc, 9, "x")).toBe(doc);
  });
});
