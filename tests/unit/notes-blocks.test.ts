import { describe, expect, it } from "vitest";
import { blocksText, chunkBlocks, countBlocks, markdownToNotionBlocks, notionLanguage, splitText } from "~/domain/integrations/notes-blocks";
import { wikiStorage } from "~/domain/integrations/wiki-storage.server";
import { notionValidation } from "../mocks/notes";
import { xhtmlProblem } from "../mocks/wiki";

/** Markdown → Notion blocks and Confluence storage, checked against the stand-ins' validators. */

describe("markdownToNotionBlocks", () => {
  it("flattens lists nested deeper than Notion's two levels per request, keeping every item in order", () => {
    const md = "- a\n  - b\n    - c\n      - d\n- e";
    const blocks = markdownToNotionBlocks(md);
    expect(notionValidation(blocks, "children")).toBeNull();
    expect(blocksText(blocks)).toBe("abcde");
    const a = blocks[0]!.bulleted_list_item as any;
    expect(a.children[0].bulleted_list_item.children.map((x: any) => x.bulleted_list_item.rich_text[0].text.content)).toEqual(["c", "d"]);
  });

  it("splits long text at 2,000 characters without breaking a surrogate pair, and many runs into several blocks", () => {
    const emoji = "😀".repeat(1500);
    const pieces = splitText(emoji);
    expect(pieces.every((p) => p.length <= 2000)).toBe(true);
    expect(pieces.join("")).toBe(emoji);
    expect(pieces.some((p) => /^[\udc00-\udfff]/.test(p))).toBe(false);
    const runs = Array.from({ length: 130 }, (_, i) => (i % 2 ? `**b${i}**` : `i${i}`)).join(" ");
    const blocks = markdownToNotionBlocks(runs);
    expect(blocks.map((b) => (b.paragraph as any).rich_text.length)).toEqual([100, 30]);
    expect(notionValidation(blocks, "children")).toBeNull();
    expect(blocksText(blocks)).toContain("b129");
  });

  it("maps code fence languages to Notion's names", () => {
    expect(notionLanguage("ts")).toBe("typescript");
    expect(notionLanguage("mermaid")).toBe("mermaid");
    expect(notionLanguage("c#")).toBe("c#");
    expect(notionLanguage("klingon")).toBe("plain text");
    expect(notionLanguage(undefined)).toBe("plain text");
  });

  it("drops links Notion would refuse (relative, javascript:) but keeps their text", () => {
    const blocks = markdownToNotionBlocks("[a](#x) [b](javascript:alert(1)) [c](https://ok.example)");
    const runs = (blocks[0]!.paragraph as any).rich_text;
    expect(runs.map((r: any) => r.text.link?.url ?? null)).toEqual([null, "https://ok.example"]);
    expect(blocksText(blocks)).toBe("a b c");
  });

  it("chunks by 100 top-level blocks and at most 1,000 blocks per request", () => {
    const table = `| h |\n|---|\n${Array.from({ length: 98 }, (_, i) => `| r${i} |`).join("\n")}`;
    const blocks = markdownToNotionBlocks(Array.from({ length: 12 }, () => table).join("\n\n"));
    expect(blocks.map(countBlocks).every((n) => n === 100)).toBe(true);
    const chunks = chunkBlocks(blocks);
    expect(chunks.map((c) => c.length)).toEqual([10, 2]);
    expect(chunks.flat()).toEqual(blocks);
    expect(chunkBlocks(markdownToNotionBlocks(Array.from({ length: 250 }, (_, i) => `p${i}`).join("\n\n"))).map((c) => c.length)).toEqual([100, 100, 50]);
  });
});

describe("wikiStorage", () => {
  it("is well-formed XHTML for everything the PRD renderer produces", () => {
    const md =
      "# T\n\n- [x] done\n\nA  \nB\n\n---\n\n![x](data:image/png;base64,AAAA)\n\n<details><summary>More</summary>\n\n- hidden\n\n</details>\n\n~~~\nplain ]]> code\n~~~\n\n    indented < code";
    const storage = wikiStorage(md);
    expect(xhtmlProblem(storage)).toBeNull();
    expect(storage).not.toContain("data:image");
    expect(storage).toContain("<![CDATA[plain ]]]]><![CDATA[> code]]>");
    expect(storage).toContain("<![CDATA[indented < code]]>");
  });
});
