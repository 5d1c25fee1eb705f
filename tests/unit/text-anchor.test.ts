import { describe, expect, it } from "vitest";
import { readerText, sectionAt } from "~/utils/markdown-text.server";
import { sections } from "~/utils/markdown.server";
import { createLocator, locateQuote } from "~/utils/text-anchor";

const at = (text: string, range: { start: number; end: number } | null) => (range ? text.slice(range.start, range.end) : null);

describe("locateQuote", () => {
  it("finds an exact quote", () => {
    const text = "Checkout takes nine steps. Customers give up at the payment page.";
    const range = locateQuote(text, { quote: "nine steps" });
    expect(range).toEqual({ start: 15, end: 25 });
    expect(at(text, range)).toBe("nine steps");
  });

  it("picks the occurrence whose prefix and suffix match among several", () => {
    const text = "Goals: ship it fast.\nRisks: ship it fast and break things.\nOut of scope: ship it fast later.";
    const first = text.indexOf("ship it fast");
    const second = text.indexOf("ship it fast", first + 1);
    const third = text.lastIndexOf("ship it fast");
    expect(locateQuote(text, { quote: "ship it fast" })?.start).toBe(first);
    expect(locateQuote(text, { quote: "ship it fast", prefix: "Risks: ", suffix: " and break" })?.start).toBe(second);
    expect(locateQuote(text, { quote: "ship it fast", suffix: " later." })?.start).toBe(third);
    expect(locateQuote(text, { quote: "ship it fast", prefix: "Out of scope:" })?.start).toBe(third);
  });

  it("ignores whitespace, line breaks and case, and returns the span in the original text", () => {
    const text = "## Problem\n\nCheckout   takes\nnine steps.";
    const range = locateQuote(text, { quote: "checkout takes nine STEPS" });
    expect(at(text, range)).toBe("Checkout   takes\nnine steps");
    // A quote across a block break, copied with or without the break.
    expect(at(text, locateQuote(text, { quote: "Problem Checkout" }))).toBe("Problem\n\nCheckout");
    expect(at(text, locateQuote(text, { quote: "ProblemCheckout" }))).toBe("Problem\n\nCheckout");
    // Curly quotes and dashes match their ASCII forms.
    expect(at("It's a long—very long—flow", locateQuote("It's a long—very long—flow", { quote: "It\u2019s a long-very" }))).toBe("It's a long—very");
  });

  it("keeps the anchor when the text around it is edited", () => {
    const before = "Intro. We must support Apple Pay and Google Pay at launch. Then more.";
    const anchor = { quote: "support Apple Pay", prefix: "Intro. We must ", suffix: " and Google Pay at launch" };
    const after = "A new first paragraph.\n\nIntro, rewritten. We will support Apple Pay, and maybe Google Pay. Then more.";
    expect(at(after, locateQuote(after, anchor))).toBe("support Apple Pay");
    expect(at(before, locateQuote(before, anchor))).toBe("support Apple Pay");
    // Two occurrences: the context that survived the edit decides.
    const twice = "Payments: support Apple Pay later. Intro, we must support Apple Pay and Google Pay.";
    expect(locateQuote(twice, anchor)?.start).toBe(twice.lastIndexOf("support Apple Pay"));
  });

  it("tolerates small edits inside the quote", () => {
    const anchor = { quote: "Customers abandon the cart at the payment page", prefix: "because ", suffix: "." };
    const text = "Sales drop because customers abandon their cart on the payment page.";
    expect(at(text, locateQuote(text, anchor))).toBe("customers abandon their cart on the payment page");
    // A typo fixed.
    const typo = "We shoud recieve payments daily.";
    expect(at("We should receive payments daily.", locateQuote("We should receive payments daily.", { quote: typo }))).toBe(
      "We should receive payments daily.",
    );
  });

  it("finds a long passage edited in several places, its first and last characters included", () => {
    const words = "checkout payment customer order cart wallet refund shipping address card".split(" ");
    let seed = 1;
    const random = () => (seed = (seed * 16807) % 2147483647) / 2147483647;
    const body = Array.from({ length: 3000 }, () => words[Math.floor(random() * words.length)]).join(" ");
    const quote = body.slice(10_000, 10_400);
    const edited = `Q${quote.slice(1, 100)}XYZ${quote.slice(110, 300)}${quote.slice(305, 399)}Q`;
    const text = body.slice(0, 10_000) + edited + body.slice(10_400);
    expect(locateQuote(text, { quote })).toEqual({ start: 10_000, end: 10_000 + edited.length });
  });

  it("returns null when the quote is gone or rewritten beyond a few edits", () => {
    const anchor = { quote: "Customers abandon the cart at the payment page" };
    expect(locateQuote("A completely different document about onboarding.", anchor)).toBeNull();
    expect(locateQuote("Customers love the new checkout flow overall.", anchor)).toBeNull();
    expect(locateQuote("", anchor)).toBeNull();
    expect(locateQuote("anything", { quote: "   " })).toBeNull();
    // Short quotes must match exactly (no fuzzy match below five characters).
    expect(locateQuote("The cat sat.", { quote: "cab" })).toBeNull();
  });

  it("reuses one folded text for many anchors", () => {
    const text = "Alpha beta gamma. Delta epsilon.";
    const locate = createLocator(text);
    expect(at(text, locate({ quote: "beta" }))).toBe("beta");
    expect(at(text, locate({ quote: "delta EPSILON" }))).toBe("Delta epsilon");
    expect(locate({ quote: "zeta" })).toBeNull();
  });

  it("finds the best near miss in a long text of near misses (a quadratic search fails by the test timeout)", () => {
    const text = "lorem ipsum dolor sit amet ".repeat(4000);
    const locate = createLocator(text);
    for (let i = 0; i < 20; i++) {
      const found = locate({ quote: "lorem ipsum dolor sat amet lorem ipsum dolar sit", prefix: "amet ", suffix: " amet" });
      // The first place the quote nearly matches with "amet " before it: the second sentence.
      expect(found).toEqual({ start: 27, end: 75 });
      expect(at(text, found)).toBe("lorem ipsum dolor sit amet lorem ipsum dolor sit");
    }
  });
});

describe("readerText (the PRD as a reader sees it)", () => {
  const md = [
    "Intro before any heading.",
    "",
    "# Title",
    "",
    "Checkout has **nine** steps, see [the study](https://example.com) &amp; `logs`.",
    "",
    "## Goals and *success*",
    "- Cut to three steps",
    "- Support [Apple Pay][ap]",
    "",
    "| Metric | Target |",
    "|---|---|",
    "| Steps | 3 |",
    "",
    "```",
    "## not a heading",
    "```",
    "",
    "## Goals and *success*",
    "<p>Raw <b>HTML</b> too</p>",
    "",
    "[ap]: https://example.com/ap",
  ].join("\n");

  it("drops the Markdown syntax and keeps what is shown, block by block", () => {
    const { text } = readerText(md);
    expect(text).toContain("Checkout has nine steps, see the study & logs.");
    expect(text).toContain("Cut to three steps\nSupport Apple Pay");
    expect(text).toContain("Metric\tTarget\nSteps\t3");
    expect(text).toContain("## not a heading");
    expect(text).not.toMatch(/\*\*|\]\(|<b>|&amp;/);
  });

  it("gives each section of sections() its span of the text", () => {
    const reader = readerText(md);
    expect(reader.sections.map((s) => s.id)).toEqual(sections(md).map((s) => s.id));
    const at = (quote: string) => sectionAt(reader, locateQuote(reader.text, { quote })!.start);
    expect(at("Intro before")).toBeNull();
    expect(at("nine steps")).toBe("title");
    expect(at("Support Apple Pay")).toBe("goals-and-success");
    expect(at("not a heading")).toBe("goals-and-success");
    expect(at("Raw HTML too")).toBe("goals-and-success-1");
  });
});
