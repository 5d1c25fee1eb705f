import { strFromU8, unzipSync } from "fflate";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { clearDiagramCache, closeDiagramBrowser, isTrustedSvg, renderDiagrams } from "~/domain/exports/mermaid.server";
import { prepareDocument } from "~/domain/exports/prepare.server";
import { renderDocx } from "~/domain/exports/render/docx.server";
import { renderHtml } from "~/domain/exports/render/html.server";
import type { Account } from "../support/org";
import { brandedOwner } from "./export-render-support";

/** Mermaid diagrams rendered on the server with Chromium, and their fallback. */

const FLOW = "flowchart LR\n  A[Start checkout] --> B{Card saved?}\n  B -->|Yes| C[Pay in one tap]\n  B -->|No| D[Enter card]";
const BROKEN = "flowchart TD\n  A[[[ --> ";
/** The text an SVG shows (mermaid writes each word of a label as its own tspan). */
const svgText = (svg: string) => svg.replace(/<style>[\s\S]*?<\/style>/g, "").replace(/<[^>]+>/g, "");
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const ORG = "org-mermaid-a";
const OTHER_ORG = "org-mermaid-b";

let owner: Account;
beforeAll(async () => {
  owner = await brandedOwner({ companyName: "Acme Docs" });
});
afterEach(() => {
  delete process.env.EXPORT_DIAGRAMS;
});
afterAll(async () => {
  await closeDiagramBrowser();
});

describe("renderDiagrams", () => {
  it("renders a flowchart to an SVG with its labels and a 2× PNG; a broken one to null", async () => {
    const diagrams = await renderDiagrams(ORG, [`\n${FLOW}\n`, BROKEN]);
    const flow = diagrams.get(FLOW)!;
    expect(flow).not.toBeNull();
    for (const label of ["Start checkout", "Card saved?", "Pay in one tap", "Enter card", "Yes", "No"]) expect(svgText(flow.svg)).toContain(label);
    expect(flow.svg.startsWith("<svg")).toBe(true);
    expect(isTrustedSvg(flow.svg)).toBe(true);
    expect(flow.svg).not.toMatch(/<script|<foreignObject|\son[a-z]+=/i);
    expect([...flow.png.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    // The PNG is the diagram at twice its CSS size.
    expect(flow.width).toBeGreaterThan(100);
    expect(flow.height).toBeGreaterThan(20);
    expect(flow.png.readUInt32BE(16)).toBe(flow.width * 2);
    expect(flow.png.readUInt32BE(20)).toBe(flow.height * 2);

    expect(diagrams.has(BROKEN.trim())).toBe(true);
    expect(diagrams.get(BROKEN.trim())).toBeNull();
  });

  it("reuses a rendered diagram from its cache and keeps label markup as text", async () => {
    const first = (await renderDiagrams(ORG, [FLOW])).get(FLOW);
    expect((await renderDiagrams(ORG, [FLOW])).get(FLOW)).toBe(first);

    const hostile = 'flowchart TD\n  A["<img src=x onerror=alert(1)> Label"] --> B["<script>alert(2)</script>"]';
    const d = (await renderDiagrams(ORG, [hostile])).get(hostile.trim())!;
    expect(d).not.toBeNull();
    expect(isTrustedSvg(d.svg)).toBe(true);
    expect(d.svg).not.toMatch(/<img|<script/i);
  });

  it("caches per organization: another organization's same source is rendered again, not answered from the cache", async () => {
    const source = `${FLOW}\n  D --> E[Per-organization cache]`;
    const mine = (await renderDiagrams(ORG, [source])).get(source)!;
    expect(mine).not.toBeNull();
    expect((await renderDiagrams(ORG, [source])).get(source)).toBe(mine);
    // A cache hit across organizations would tell OTHER_ORG (by a fast answer) that someone rendered this source.
    const theirs = (await renderDiagrams(OTHER_ORG, [source])).get(source)!;
    expect(theirs).not.toBeNull();
    expect(theirs).not.toBe(mine);
    expect(theirs.svg).toBe(mine.svg);
    expect((await renderDiagrams(OTHER_ORG, [source])).get(source)).toBe(theirs);
  });

  it("refuses diagrams whose styles would fetch from outside", async () => {
    const styled = "flowchart TD\n  A --> B\n  classDef far fill:url(https://evil.example/x.png)\n  class A far";
    expect((await renderDiagrams(ORG, [styled])).get(styled)).toBeNull();
    expect(isTrustedSvg('<svg><image href="https://evil.example/a.png"/></svg>')).toBe(false);
    expect(isTrustedSvg('<svg onload="alert(1)"></svg>')).toBe(false);
    expect(isTrustedSvg("<svg><foreignObject><div>x</div></foreignObject></svg>")).toBe(false);
    expect(isTrustedSvg('<svg><use href="#marker"/><text>a onclick="x"</text></svg>')).toBe(true);
  });

  it("is switched off by EXPORT_DIAGRAMS=off", async () => {
    clearDiagramCache();
    process.env.EXPORT_DIAGRAMS = "off";
    expect((await renderDiagrams(ORG, [FLOW])).get(FLOW)).toBeNull();
  });
});

describe("diagrams in exports", () => {
  const markdown = `# Flows\n\n\`\`\`mermaid\n${FLOW}\n\`\`\`\n\nBetween.\n\n\`\`\`mermaid\n${BROKEN}\n\`\`\`\n`;

  it("HTML: the diagram as inline SVG, the broken one as a fallback box with its source", async () => {
    const doc = await prepareDocument({ orgId: owner.organization.id, title: "Flows", markdown });
    expect(doc.diagrams.get(FLOW)).not.toBeNull();
    expect(doc.diagrams.get(BROKEN.trim())).toBeNull();
    const html = renderHtml(doc);
    const figure = /<figure class="diagram" role="img" aria-label="Diagram">(<svg[\s\S]*?<\/svg>)<\/figure>/.exec(html);
    expect(figure).not.toBeNull();
    expect(svgText(figure![1]!)).toContain("Pay in one tap");
    expect(html).not.toContain("<pre><code>flowchart LR");
    expect(html).toContain('<div class="diagram-fallback" role="note"><p><strong>Diagram could not be rendered.</strong>');
    expect(html).toContain("<pre><code>flowchart TD\n  A[[[ --&gt;</code></pre></div>");
    expect(html).not.toMatch(/<script|\son[a-z]+="/i);
  });

  it("DOCX: the diagram as a PNG picture, the broken one as the fallback note and its source", async () => {
    const doc = await prepareDocument({ orgId: owner.organization.id, title: "Flows", markdown });
    const files = unzipSync(await renderDocx(doc));
    const media = Object.keys(files).filter((f) => f.startsWith("word/media/") && !f.endsWith("/"));
    expect(media).toHaveLength(1);
    expect([...files[media[0]!]!.subarray(0, 8)]).toEqual(PNG_SIGNATURE);
    const xml = strFromU8(files["word/document.xml"]!);
    expect(xml).toMatch(/<wp:docPr [^>]*name="Diagram"/);
    expect(xml).toContain("Diagram could not be rendered.");
    expect(xml).toMatch(/<w:pStyle w:val="Code"\/>[\s\S]*A\[\[\[ --&gt;/);
    expect(xml).not.toContain("Pay in one tap</w:t>");
  });

  it("without diagrams (EXPORT_DIAGRAMS=off) every block falls back to its source", async () => {
    clearDiagramCache();
    process.env.EXPORT_DIAGRAMS = "off";
    const doc = await prepareDocument({ orgId: owner.organization.id, title: "Flows", markdown });
    const html = renderHtml(doc);
    expect(html.match(/class="diagram-fallback"/g)).toHaveLength(2);
    expect(html).toContain("Pay in one tap");
    expect(html).not.toContain("<svg");
  });
});
