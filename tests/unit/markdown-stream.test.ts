import { describe, expect, it } from "vitest";
import { streamingHtml } from "~/utils/markdown-stream";

describe("streamingHtml (the builder's reply while it streams)", () => {
  it("renders the Markdown a reply uses: bold, lists, code", () => {
    const html = streamingHtml("Noted: **48 hours**.\n\n1. Confirm\n2. Cancel\n\nUse `C` or `X`.");
    expect(html).toContain("<strong>48 hours</strong>");
    expect(html).toMatch(/<ol>\s*<li>Confirm<\/li>\s*<li>Cancel<\/li>\s*<\/ol>/);
    expect(html).toContain("<code>C</code>");
  });

  it("lets no markup of the model's through: raw HTML is text, links are text, images are their alt text", () => {
    const html = streamingHtml('Hi <script>alert(1)</script> <img src=x onerror="alert(2)"> [click](javascript:alert(3)) ![alt text](http://evil/x.png)');
    expect(html).not.toMatch(/<script|<img|<a\b|href=|onerror="/i);
    expect(html).toContain("&lt;script&gt;");
    expect(html).toContain("click");
    expect(html).toContain("alt text");
  });

  it("renders a half-streamed reply without breaking (an unclosed bold stays text)", () => {
    expect(streamingHtml("So the **goal")).toContain("**goal");
  });
});
