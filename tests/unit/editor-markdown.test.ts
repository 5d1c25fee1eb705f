import { readdirSync, readFileSync } from "node:fs";
import type { JSONContent } from "@tiptap/core";
import { describe, expect, it } from "vitest";
import { SYSTEM_TEMPLATES } from "#db/seed/system-templates";
import { interviewOutline } from "~/ai/builtin/answers";
import { generatePrd } from "~/ai/builtin/prd";
import { prdExtensions } from "~/editor/extensions";
import { PrdMarkdown } from "~/editor/markdown";
import { PRD_STYLES } from "~/domain/prd/prd.schema";
import { starterFor } from "~/domain/prd/starter";
import { renderMarkdown } from "~/utils/markdown.server";

/**
 * The rich editor keeps Markdown as the stored format: every PRD we ship or
 * write reads into the editor and back unchanged, and an edit changes only
 * the block it touched.
 */

const md = new PrdMarkdown(prdExtensions());
const dir = "tests/fixtures/calibration";

const ctx = { memories: [], projectName: "Dental reminders", projectDescription: "Appointment reminders for our dental app." };
const qaPairs = interviewOutline(ctx)
  .filter((p) => !p.derived)
  .map((p, i) => ({
    question: p.question,
    answer:
      [
        "Patients forget appointments; staff phone each patient the day before (2 hours a day).",
        "| Metric | Target |\n| --- | --- |\n| No-shows | 9% |\n| Calls saved | 2 h/day |",
        "Primary: receptionists. Secondary: patients & clinic owners.",
        "1. Send an SMS 48 hours before.\n2. Let patients reply C or X.\n3. Show status <beside> each booking.",
        "Out of scope: email, voice calls.",
        "Risk: SMS costs exceed the €400 budget. Mitigation: cap volume at 80%.",
        "Pilot in March 2027; GA 10 weeks later.",
      ][i] ?? "",
  }));

const documents: [string, string][] = [
  ...readdirSync(dir)
    .filter((f) => f.endsWith(".md"))
    .map((f) => [f, readFileSync(`${dir}/${f}`, "utf8")] as [string, string]),
  ...SYSTEM_TEMPLATES.map((t) => [`template ${t.name}`, starterFor(t.name, { sections: t.sections, initialQuestion: "" }).content] as [string, string]),
  ["default starter", starterFor("New", null).content],
  ...PRD_STYLES.map((style) => [`drafter ${style}`, generatePrd({ style, qaPairs }, ctx)] as [string, string]),
  [
    "every construct",
    "# Title\n\nText with **bold**, _italic_, `code`, ~~gone~~, a [link](https://example.com) & tags.\n\n" +
      "* star bullet\n* second\n\n1) paren list\n2) two\n\n- [ ] open task\n- [x] done task\n\n> quoted\n> lines\n\n" +
      "| A | B |\n|---|:-:|\n| 1 | 2 |\n\n```mermaid\ngraph TD\n  A-->B\n```\n\n    indented code\n\n---\n\n![Diagram](/files/x.png)\n\nSetext\n======\n\nline one  \nline two\n",
  ],
];
/** Raw HTML is shown and kept as literal text once its block is edited (docs/design/rich-editor.md). */
const rawHtml = "Some <b>bold</b> HTML & <!-- a note -->\n\n<div>block</div>\n";

const stripSource = (doc: JSONContent): JSONContent => JSON.parse(JSON.stringify(doc), (k, v) => (k === "md" ? undefined : v));
const text = (markdown: string) =>
  renderMarkdown(markdown)
    .replace(/<[^>]+>/g, " ")
    .replace(/&amp;/g, "&")
    .replace(/&lt;/g, "<")
    .replace(/&gt;/g, ">")
    .replace(/&quot;|&#39;/g, (e) => (e === "&quot;" ? '"' : "'"))
    .replace(/\s+/g, " ")
    .trim();

describe("Markdown round trip through the rich editor", () => {
  it.each([...documents, ["raw HTML", rawHtml]])("%s reads and writes back byte for byte", (_name, source) => {
    expect(md.serialize(md.parse(source))).toBe(source);
  });

  it.each(documents)("%s: the normalised form (every block rewritten) says the same and is stable", (_name, source) => {
    const fresh = md.serialize(stripSource(md.parse(source)));
    expect(text(fresh)).toBe(text(source));
    expect(md.serialize(stripSource(md.parse(fresh)))).toBe(fresh);
  });

  it("an edit rewrites only the block it touched", () => {
    const source = readFileSync(`${dir}/01-dental-appointment-reminders.md`, "utf8");
    const doc = md.parse(source);
    const index = doc.content!.findIndex((n) => n.type === "paragraph");
    const paragraph = doc.content![index]!;
    paragraph.content = [...(paragraph.content ?? []), { type: "text", text: " Added & kept." }];
    const out = md.serialize(doc);
    const before = source.split("\n");
    const after = out.split("\n");
    expect(after.length).toBe(before.length);
    const changed = after.filter((line, i) => line !== before[i]);
    expect(changed).toHaveLength(1);
    expect(changed[0]).toMatch(/ Added & kept\.$/);
  });

  it("a paragraph edited under a heading written without a blank line stays under it", () => {
    const doc = md.parse("## Problem\nPaying takes 9 steps.\n\n## Goals\n- One tap\n");
    doc.content![1]!.content![0]!.text += " Today.";
    expect(md.serialize(doc)).toBe("## Problem\nPaying takes 9 steps. Today.\n\n## Goals\n- One tap\n");
  });

  it("a forged source attribute is ignored when it does not match the block", () => {
    const doc = md.parse("Hello\n");
    doc.content![0]!.attrs!.md = "<script>alert(1)</script>\n";
    expect(md.serialize(doc)).toBe("Hello\n");
  });

  it("new blocks are separated by a blank line and empty paragraphs are dropped", () => {
    const doc = md.parse("# A\n\nOne\n");
    doc.content!.push({ type: "paragraph" }, { type: "heading", attrs: { level: 2 }, content: [{ type: "text", text: "B & C" }] });
    expect(md.serialize(doc)).toBe("# A\n\nOne\n\n## B & C\n");
  });
});
