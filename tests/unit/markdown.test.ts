import { describe, expect, it } from "vitest";
import { renderMarkdown, sections } from "~/utils/markdown.server";

describe("renderMarkdown", () => {
  it("renders markdown with heading anchors", () => {
    const html = renderMarkdown("# Checkout\n\n## Goals\n\n- **Fast** pay\n\n## Goals\n");
    expect(html).toContain('<h1 id="checkout">Checkout</h1>');
    expect(html).toContain('<h2 id="goals">Goals</h2>');
    expect(html).toContain('<h2 id="goals-1">Goals</h2>');
    expect(html).toContain("<strong>Fast</strong>");
  });

  it("removes scripts, event handlers and javascript: links", () => {
    const html = renderMarkdown('<script>alert(1)</script>\n\n<img src="x" onerror="alert(1)">\n\n[x](javascript:alert(1))');
    expect(html).not.toContain("<script");
    expect(html).not.toContain("onerror");
    expect(html).not.toContain("javascript:");
  });

  it("lists sections outside code fences, with the same ids as the rendered headings", () => {
    const md = "# Title\n\n## Problem\n\n```\n## not a heading\n```\n\n### Users & personas\n";
    expect(sections(md)).toEqual([
      { id: "title", title: "Title", level: 1 },
      { id: "problem", title: "Problem", level: 2 },
      { id: "users-personas", title: "Users & personas", level: 3 },
    ]);
    expect(renderMarkdown(md)).toContain('id="users-personas"');
  });
});
