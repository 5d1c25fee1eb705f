import { describe, expect, it } from "vitest";
import { textOn } from "~/domain/branding/brand-style";
import { renderMarkdown, renderMarkdownForPage } from "~/utils/markdown.server";

/** Helpers of the small-screen rules (docs/ui.md, "Small screens"); the pages themselves: tests/e2e/responsive.e2e.ts. */

describe("renderMarkdownForPage", () => {
  it("puts each table in a focusable scrolling region and lets each code block take focus", () => {
    const html = renderMarkdownForPage("| a | b |\n|---|---|\n| 1 | 2 |\n\n```\ncurl https://example.com\n```\n");
    expect(html).toMatch(/^<div class="table-scroll" role="region" aria-label="Table" tabindex="0"><table>[\s\S]*<\/table><\/div>/);
    expect(html).toContain('<pre tabindex="0"><code>curl https://example.com');
  });

  it("keeps a table's own attributes and closes every box it opens", () => {
    const html = renderMarkdownForPage('<table id="t"><tr><td>x</td></tr></table>\n\n<pre id="p">x</pre>\n');
    expect(html).toContain('tabindex="0"><table id="t">');
    expect(html).toContain('<pre tabindex="0" id="p">');
    expect(html.match(/<div/g)?.length).toBe(html.match(/<\/div>/g)?.length);
  });

  it("leaves renderMarkdown (exports) as it was", () => {
    expect(renderMarkdown("```\nx\n```\n")).toContain("<pre><code>x");
  });
});

describe("textOn", () => {
  it("picks the text colour that reads better on an organization's colour", () => {
    expect(textOn("#0ea5e9")).toBe("#000000"); // the default accent: white on it is 2.8:1
    expect(textOn("#4f46e5")).toBe("#ffffff");
    expect(textOn("#fff")).toBe("#000000");
    expect(textOn("#12142b")).toBe("#ffffff");
    expect(textOn("not a colour")).toBe("#ffffff");
  });
});
