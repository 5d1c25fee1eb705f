import { beforeAll, describe, expect, it } from "vitest";
import { prepareDocument } from "~/domain/exports/prepare.server";
import { renderHtml } from "~/domain/exports/render/html.server";
import type { Account } from "../support/org";
import { joinOrg } from "../support/org";
import { actorOf, brandedOwner, jpeg, newProject, png, uploadImage, XSS_MARKDOWN } from "./export-render-support";

/** The HTML export: self-contained, sanitized, branded, printable. */

const PRD = `# Checkout Revamp

Intro with **bold**, *emphasis*, \`inline code\` and [a link](https://example.com/spec).

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

\`\`\`ts
const total = items.reduce((sum, i) => sum + i.price, 0);
\`\`\`

### Edge cases

> Quoted note about refunds. See [requirements](#requirements).
`;

let owner: Account;
let projectId: string;
let otherProjectId: string;
let ownImage: { url: string };
let photo: { url: string; contentType: string };
let otherImage: { url: string };
let outsiderImage: { url: string };

beforeAll(async () => {
  owner = await brandedOwner({ logo: true, companyName: "Acme Docs" });
  projectId = await newProject(owner.client, "Checkout");
  otherProjectId = await newProject(owner.client, "Private roadmap");
  ownImage = await uploadImage(owner.client, projectId, await png(30, 20), "diagram.png");
  photo = await uploadImage(owner.client, projectId, await jpeg(40, 30), "photo.jpg");
  otherImage = await uploadImage(owner.client, otherProjectId, await png(12, 12), "other.png");
  const outsider = await brandedOwner({ name: "Olga Outsider" });
  outsiderImage = await uploadImage(outsider.client, await newProject(outsider.client, "Theirs"), await png(10, 10), "theirs.png");
});

describe("renderHtml", () => {
  it("is a complete, self-contained document: inline CSS, branding, title block, contents, no outside references", async () => {
    const doc = await prepareDocument({ orgId: owner.organization.id, projectId, title: "Checkout Revamp", subtitle: "In review · version 2", markdown: PRD });
    const html = renderHtml(doc);

    expect(html.startsWith("<!doctype html>")).toBe(true);
    expect(html).toContain("<style>");
    expect(html).not.toMatch(/<link\b/i);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/@import/i);
    expect(html).not.toMatch(/\ssrc="(?:https?:)?\/\//i);
    expect(html).not.toMatch(/url\(\s*['"]?(?:https?:)?\/\//i);
    expect(html).toContain("default-src 'none'");

    // Branding: primary colour in the stylesheet, company name, the logo as a data: URI.
    expect(html).toContain("--brand: #0f766e");
    expect(html).toContain("Acme Docs");
    expect(html).toMatch(/<img src="data:image\/png;base64,[A-Za-z0-9+/=]+" alt="Acme Docs logo" width="120" height="40">/);

    // Title block and a table of contents linking to the headings.
    expect(html).toContain("<h1>Checkout Revamp</h1>");
    expect(html).toContain('<p class="subtitle">In review · version 2</p>');
    expect(html).toMatch(/<p class="generated">Generated <time datetime="\d{4}-\d\d-\d\dT/);
    expect(html).toMatch(/<nav class="toc"[^>]*>.*<a href="#requirements">Requirements<\/a>.*<a href="#edge-cases">Edge cases<\/a>/s);
    expect(html).toContain('<h2 id="requirements">Requirements</h2>');

    // Markdown structure survives.
    expect(html).toMatch(/<table>\s*<thead>\s*<tr>\s*<th align="left">Requirement<\/th>/);
    expect(html).toContain('<td align="center">Must</td>');
    expect(html).toMatch(/<ul>\s*<li>First bullet<\/li>/);
    expect(html).toMatch(/<ol>\s*<li>Nested step one<\/li>/);
    expect(html).toContain('<input type="checkbox" disabled checked />');
    expect(html).toContain("<pre><code>const total = items.reduce((sum, i) =&gt; sum + i.price, 0);");
    expect(html).toContain("<blockquote>");
    expect(html).toContain('<a href="https://example.com/spec" rel="noopener noreferrer">a link</a>');
    expect(html).toContain("<strong>bold</strong>");
    expect(html).toContain('<a href="#requirements" rel="noopener noreferrer">requirements</a>');

    // Printable.
    expect(html).toMatch(/@media print \{[\s\S]*break-inside: avoid/);
    expect(html).toContain("thead { display: table-header-group; }");
  });

  it("neutralises script, event handlers, javascript: URLs and outside resources in the markdown", async () => {
    const doc = await prepareDocument({ orgId: owner.organization.id, projectId, title: "XSS <b>title</b>", markdown: XSS_MARKDOWN });
    const html = renderHtml(doc);
    expect(html).not.toMatch(/<script/i);
    expect(html).not.toMatch(/\son[a-z]+\s*=/i);
    expect(html).not.toMatch(/javascript:|vbscript:|data:text\/html/i);
    const body = html.slice(html.indexOf('<main class="prd">'), html.indexOf("</main>"));
    expect(body).not.toMatch(/<(iframe|object|embed|link|form|input name|button|base|meta|svg|math|style)\b/i);
    expect(html.match(/<meta\b/g)).toHaveLength(4); // charset, CSP, viewport, generator: ours only
    expect(html).not.toContain("evil.example");
    expect(html).not.toMatch(/style="/i);
    for (const n of ["s1", "s2", "s3", "s4", "s5", "s6", "s7", "s8"]) expect(html).not.toContain(`alert('${n}')`);
    expect(html).not.toContain('alert("s1")');
    // Text stays, as text; images from elsewhere become their alt text.
    expect(html).toContain("Hello  world.");
    expect(html).toContain("<a>js link</a>");
    expect(html).toContain('<span class="image-missing">[Image: tracker]</span>');
    expect(html).toContain('<span class="image-missing">[Image: remote]</span>');
    expect(html).toContain("<title>XSS &lt;b&gt;title&lt;/b&gt;</title>");
  });

  it("embeds the project's uploaded images as data: URIs (relative or absolute on APP_URL), never other organizations' or outside ones", async () => {
    const absolute = `http://localhost:3000${ownImage.url}`;
    const markdown = [
      `![Own diagram](${ownImage.url})`,
      `![Same image, absolute](${absolute})`,
      `![Photo](${photo.url})`,
      `![Other project](${otherImage.url})`,
      `![Other org](${outsiderImage.url})`,
      `![Lookalike host](https://evil.example${ownImage.url})`,
    ].join("\n\n");
    const doc = await prepareDocument({ orgId: owner.organization.id, projectId, title: "Images", markdown });
    expect([...doc.images.keys()].sort()).toEqual([absolute, ownImage.url, photo.url].sort());
    expect(doc.images.get(ownImage.url)).toMatchObject({ contentType: "image/png", width: 30, height: 20 });
    // Stored as WebP; exported as JPEG (opaque), which PDF and Word can embed too.
    expect(photo.contentType).toBe("image/webp");
    expect(doc.images.get(photo.url)).toMatchObject({ contentType: "image/jpeg", width: 40, height: 30 });

    const html = renderHtml(doc);
    expect(html).toMatch(/<img src="data:image\/png;base64,[^"]+" alt="Own diagram" width="30" height="20" \/>/);
    expect(html).toMatch(/<img src="data:image\/png;base64,[^"]+" alt="Same image, absolute"/);
    expect(html).toMatch(/<img src="data:image\/jpeg;base64,[^"]+" alt="Photo" width="40" height="30" \/>/);
    expect(html).toContain('<span class="image-missing">[Image: Other project]</span>');
    expect(html).toContain('<span class="image-missing">[Image: Other org]</span>');
    expect(html).toContain('<span class="image-missing">[Image: Lookalike host]</span>');
    expect(html).not.toContain("/api/uploads/images/");
  });

  it("embeds images of other projects only for an exporter who may read them", async () => {
    const markdown = `![Other project](${otherImage.url})`;
    const asOwner = await prepareDocument({ orgId: owner.organization.id, projectId, viewer: actorOf(owner), title: "x", markdown });
    expect(asOwner.images.has(otherImage.url)).toBe(true);

    const viewer = await joinOrg(owner.organization.id, "viewer", "Vic Viewer");
    const asViewer = await prepareDocument({ orgId: owner.organization.id, viewer: actorOf(viewer, "viewer", owner.organization.id), title: "x", markdown });
    expect(asViewer.images.size).toBe(0);
    expect(renderHtml(asViewer)).toContain("[Image: Other project]");

    // Content exports without a caller embed nothing.
    const anonymous = await prepareDocument({ orgId: owner.organization.id, title: "x", markdown: `![Own](${ownImage.url})` });
    expect(anonymous.images.size).toBe(0);
  });

  it("falls back to the organization's name and no logo when branding has none", async () => {
    const plain = await brandedOwner({ name: "Pat Plain" });
    const doc = await prepareDocument({ orgId: plain.organization.id, title: "Plain", markdown: "Just text." });
    expect(doc.branding).toMatchObject({ primaryColor: "#0f766e", companyName: plain.organization.name, logo: null });
    const html = renderHtml(doc);
    expect(html).toContain(`<span class="company">${plain.organization.name.replace(/'/g, "&#39;")}</span>`);
    expect(html).not.toContain("data:image/png");
    expect(html).not.toContain('<nav class="toc"');
  });
});
