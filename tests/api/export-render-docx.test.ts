import { strFromU8, unzipSync } from "fflate";
import mammoth from "mammoth";
import { beforeAll, describe, expect, it } from "vitest";
import type { ExportDocument } from "~/domain/exports/document";
import { prepareDocument } from "~/domain/exports/prepare.server";
import { renderDocx } from "~/domain/exports/render/docx.server";
import { largePrd } from "../support/large-prd";
import type { Account } from "../support/org";
import { brandedOwner, newProject, png, uploadImage, XSS_MARKDOWN } from "./export-render-support";

/** The Word export: real headings, lists, tables, code, links, images, branding. */

let owner: Account;
let projectId: string;
let image: { url: string };

beforeAll(async () => {
  owner = await brandedOwner({ logo: true, companyName: "Acme Docs" });
  projectId = await newProject(owner.client, "Checkout");
  image = await uploadImage(owner.client, projectId, await png(300, 150), "flow.png");
});

const prd = (imageUrl: string) => `# Checkout Revamp

Intro with **bold words**, *emphasis*, ~~struck~~, \`inlineCode()\` and [the spec](https://example.com/spec) &amp; more.

## Requirements

| Requirement | Priority |
|:--|:-:|
| Pay with saved card | Must |
| Split payments | Could |

- First bullet
- Second bullet
  1. Nested step one
  2. Nested step two
- [x] Done task

1. Ordered one
2. Ordered two

\`\`\`ts
const total = items.reduce((sum, i) => sum + i.price, 0);
  indented();
\`\`\`

### Screens

![Checkout flow](${imageUrl})

![Remote](https://evil.example/remote.png)

> Quoted note about refunds. See [requirements](#requirements).
`;

function unzip(bytes: Uint8Array) {
  const files = unzipSync(bytes);
  const text = (name: string) => (files[name] ? strFromU8(files[name]!) : "");
  return { files, text, document: text("word/document.xml"), rels: text("word/_rels/document.xml.rels") };
}

/** Paragraph texts of document.xml with their style (w:pStyle), in order. */
function paragraphs(xml: string) {
  return [...xml.matchAll(/<w:p>([\s\S]*?)<\/w:p>|<w:p [^>]*>([\s\S]*?)<\/w:p>/g)].map((m) => {
    const inner = m[1] ?? m[2] ?? "";
    return {
      style: /<w:pStyle w:val="([^"]+)"/.exec(inner)?.[1] ?? null,
      numbered: inner.includes("<w:numPr>"),
      text: [...inner.matchAll(/<w:t(?: [^>]*)?>([^<]*)<\/w:t>/g)].map((t) => t[1]).join(""),
    };
  });
}

describe("renderDocx", () => {
  let doc: ExportDocument;
  let bytes: Uint8Array;
  beforeAll(async () => {
    doc = await prepareDocument({
      orgId: owner.organization.id,
      projectId,
      title: "Checkout Revamp",
      subtitle: "In review · version 2",
      markdown: prd(image.url),
    });
    bytes = await renderDocx(doc);
  });

  it("writes Word headings, lists with numbering, tables, code and links", async () => {
    expect(Buffer.from(bytes.subarray(0, 2)).toString()).toBe("PK");
    const { document, rels, text } = unzip(bytes);
    const ps = paragraphs(document);
    const styled = (style: string) => ps.filter((p) => p.style === style).map((p) => p.text);

    expect(styled("Title")).toEqual(["Checkout Revamp"]);
    expect(styled("Subtitle")).toEqual(["In review · version 2"]);
    expect(styled("Heading1")).toEqual(["Checkout Revamp"]);
    expect(styled("Heading2")).toEqual(["Requirements"]);
    expect(styled("Heading3")).toEqual(["Screens"]);
    expect(styled("Code")).toEqual(["const total = items.reduce((sum, i) =&gt; sum + i.price, 0);  indented();"]);
    expect(styled("Quote")).toEqual(["Quoted note about refunds. See requirements."]);
    // In-document links point at the heading's bookmark.
    expect(document).toMatch(
      /<w:bookmarkStart w:id="\d+" w:name="h_requirements"\/>Requirements|<w:bookmarkStart w:id="\d+" w:name="h_requirements"\/><w:r><w:t xml:space="preserve">Requirements/,
    );
    expect(document).toMatch(
      /<w:hyperlink w:anchor="h_requirements" w:history="1"><w:r><w:rPr><w:rStyle w:val="Hyperlink"\/><\/w:rPr><w:t xml:space="preserve">requirements<\/w:t>/,
    );
    expect(ps.find((p) => p.text.startsWith("Intro"))!.text).toBe("Intro with bold words, emphasis, struck, inlineCode() and the spec &amp; more.");

    // Lists: every item a numbered paragraph (bullets and ordered lists are Word numbering).
    const items = ["First bullet", "Second bullet", "Nested step one", "Nested step two", "☑ Done task", "Ordered one", "Ordered two"];
    for (const item of items)
      expect(
        ps.find((p) => p.text === item),
        item,
      ).toMatchObject({ numbered: true });
    const numbering = text("word/numbering.xml");
    expect(numbering).toContain('<w:numFmt w:val="bullet"/>');
    expect(numbering).toContain('<w:numFmt w:val="decimal"/>');

    // A real table with a repeated header row.
    expect(document).toMatch(/<w:tbl>[\s\S]*<w:tblHeader\/>[\s\S]*Requirement[\s\S]*Pay with saved card[\s\S]*Split payments[\s\S]*<\/w:tbl>/);
    // Formatting and the link.
    expect(document).toMatch(/<w:b\/>[\s\S]{0,200}bold words/);
    expect(document).toMatch(/<w:i\/>[\s\S]{0,200}emphasis/);
    expect(document).toMatch(/<w:strike\/>[\s\S]{0,200}struck/);
    expect(document).toMatch(/<w:rStyle w:val="InlineCode"\/>[\s\S]{0,100}inlineCode\(\)/);
    expect(document).toMatch(/<w:hyperlink [^>]*r:id="[^"]+"[^>]*>[\s\S]{0,300}the spec/);
    expect(rels).toContain('Target="https://example.com/spec" TargetMode="External"');
    expect(rels).not.toContain("evil.example");
  });

  it("embeds our image, shows alt text for outside ones, and brands the title page, header and footer", async () => {
    const { files, document, text } = unzip(bytes);
    const media = Object.keys(files).filter((f) => f.startsWith("word/media/") && !f.endsWith("/"));
    // The logo and the uploaded image (the outside image is not fetched).
    expect(media).toHaveLength(2);
    for (const f of media) expect(Buffer.from(files[f]!.subarray(1, 4)).toString()).toBe("PNG");
    expect(document).toContain('descr="Checkout flow"');
    expect(document).toContain("[Image: Remote]");

    const ps = paragraphs(document);
    expect(ps[1]!.text).toBe("Acme Docs");
    expect(document).toMatch(/<w:color w:val="0F766E"\/>[\s\S]{0,100}Acme Docs/);
    expect(ps.some((p) => /^Generated \w+ \d{1,2}, \d{4}$/.test(p.text))).toBe(true);
    expect(text("word/styles.xml")).toMatch(/<w:style w:type="paragraph" w:styleId="Heading1">[\s\S]*?<w:color w:val="0F766E"\/>/);

    const headers = Object.keys(files)
      .filter((f) => /^word\/header\d\.xml$/.test(f))
      .map(text)
      .join("");
    const footers = Object.keys(files)
      .filter((f) => /^word\/footer\d\.xml$/.test(f))
      .map(text)
      .join("");
    expect(headers).toContain("Acme Docs · Checkout Revamp");
    expect(footers).toMatch(/PAGE[\s\S]*NUMPAGES/);
    expect(document).toContain("<w:titlePg/>");
  });

  it("is readable by mammoth with its structure", async () => {
    const { value: html } = await mammoth.convertToHtml({ buffer: Buffer.from(bytes) });
    // Headings carry a bookmark, so links to #sections work inside Word.
    expect(html).toContain('<h1><a id="h_checkout_revamp"></a>Checkout Revamp</h1>');
    expect(html).toContain('<h2><a id="h_requirements"></a>Requirements</h2>');
    expect(html).toMatch(/<table><thead><tr><th><p><strong>Requirement<\/strong><\/p><\/th>/);
    expect(html).toContain("<td><p>Pay with saved card</p></td>");
    expect(html).toMatch(/<ul><li>First bullet<\/li><li>Second bullet<ol><li>Nested step one<\/li><li>Nested step two<\/li><\/ol><\/li>/);
    expect(html).toContain("<ol><li>Ordered one</li><li>Ordered two</li></ol>");
    expect(html).toContain('<a href="https://example.com/spec">the spec</a>');
    expect(html).toMatch(/<img alt="Checkout flow" src="data:image\/png;base64,/);
  });

  it("keeps the text of hostile markdown as text: no script content, no javascript: link, nothing fetched", async () => {
    const hostile = await prepareDocument({ orgId: owner.organization.id, projectId, title: "XSS", markdown: XSS_MARKDOWN });
    const { document, rels, files } = unzip(await renderDocx(hostile));
    const texts = paragraphs(document).map((p) => p.text);
    expect(texts).toContain("Hello  world.");
    expect(texts).toContain("Go js link data link styled [Image: tracker] m");
    expect(document).not.toMatch(/alert/);
    expect(document).toContain("[Image: tracker]");
    expect(document).toContain("[Image: remote]");
    expect(rels).not.toMatch(/javascript:|vbscript:|data:text|evil\.example/);
    expect(Object.keys(files).filter((f) => f.startsWith("word/media/") && !f.endsWith("/"))).toHaveLength(1); // the logo
  });

  it("writes a 30,000-word PRD with every section and table", async () => {
    const { markdown, wordCount } = largePrd(30_000);
    expect(wordCount).toBeGreaterThanOrEqual(30_000);
    const sections = markdown.match(/^## /gm)!.length;
    const large = await prepareDocument({ orgId: owner.organization.id, projectId, title: "Large", markdown });
    const { document } = unzip(await renderDocx(large));
    expect(document.match(/<w:tbl>/g)).toHaveLength(sections);
    expect(document.match(/<w:pStyle w:val="Heading2"\/>/g)).toHaveLength(sections);
    expect(document).toContain(`Section ${sections}</w:t>`);
  });
});
