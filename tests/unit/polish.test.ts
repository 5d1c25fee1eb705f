import { readFileSync } from "node:fs";
import { createElement } from "react";
import { renderToString } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { toProviderError } from "~/ai/providers/errors";
import { PROVIDER_SHORT } from "~/ai/types";
import { AnsweredBy } from "~/components/ai/progress";
import { METRIC_LABELS, metricNoun, planFeatures } from "~/domain/billing/pricing";
import { METRICS } from "~/domain/billing/plans";
import { snippetParts } from "~/domain/search/snippet-text.server";
import { plural, pluralWord } from "~/utils/plural";

/** Small shared helpers behind the interface's wording: plurals, metric and provider names, search snippets, and the polish style sheet. */

describe("plural", () => {
  it("says 1 member, 0 members, 2 replies, with the count grouped", () => {
    expect(plural(1, "member")).toBe("1 member");
    expect(plural(0, "member")).toBe("0 members");
    expect(plural(2, "reply", "replies")).toBe("2 replies");
    expect(plural(1, "person", "people")).toBe("1 person");
    expect(plural(1200, "project")).toBe("1,200 projects");
    expect(pluralWord(1, "matches", "match")).toBe("matches");
    expect(pluralWord(3, "matches", "match")).toBe("match");
  });
});

describe("metric labels", () => {
  it("labels every metric plainly and keeps acronyms inside sentences", () => {
    expect(Object.keys(METRIC_LABELS).sort()).toEqual([...METRICS].sort());
    expect(Object.values(METRIC_LABELS)).toEqual([
      "Members",
      "Projects",
      "AI tokens",
      "Templates",
      "REST API keys",
      "Webhooks",
      "Document uploads",
      "Transcription minutes",
    ]);
    expect(metricNoun("ai_tokens")).toBe("AI tokens");
    expect(metricNoun("api_keys")).toBe("REST API keys");
    expect(metricNoun("document_uploads")).toBe("document uploads");
    expect(planFeatures("free")).toEqual([
      "3 members",
      "10 projects",
      "100,000 AI tokens per month",
      "3 templates",
      "No REST API keys",
      "No webhooks",
      "10 document uploads per month",
      "No transcription minutes",
      "10 AI requests per minute per user",
    ]);
  });
});

describe("provider names", () => {
  it("never shows the wire ids (provider_a…) to a person", () => {
    const html = renderToString(createElement(AnsweredBy, { source: "organization", provider: "provider_c", model: "gemini-2.5-flash" })).replace(
      /<!-- -->/g,
      "",
    );
    expect(html).toContain(`Answers come from ${PROVIDER_SHORT.provider_c} (gemini-2.5-flash)`);
    expect(html).not.toContain("provider_");
    expect(toProviderError("provider_b", Object.assign(new Error("bad key"), { status: 401 }), "").message).toBe(
      "Anthropic refused the API key (401): bad key",
    );
  });
});

describe("snippetParts", () => {
  const text = (html: string) =>
    snippetParts(html)
      .map((p) => (p.match ? `[${p.text}]` : p.text))
      .join("");

  it("drops Markdown syntax and tags and keeps the matches", () => {
    expect(text("# Page tour ## Problem <mark>Slow</mark> pages")).toBe("Page tour Problem [Slow] pages");
    expect(text("The **<mark>quokka</mark>** flow is [slow](https://example.com/x) &amp; &lt;b&gt;fragile&lt;/b&gt;.")).toBe(
      "The [quokka] flow is slow & fragile.",
    );
    expect(text("- `<mark>quokka</mark>` retries > quoted | a | b |")).toBe("[quokka] retries quoted a b");
    expect(text("…the _new_ <mark>checkout</mark> is **faster…")).toBe("…the new [checkout] is faster…");
    expect(text("<mark>Kestrel</mark> payments <mark>dashboard</mark>")).toBe("[Kestrel] payments [dashboard]");
  });

  it("keeps what is not Markdown as text: HTML stays inert, stray markers are balanced", () => {
    const parts = snippetParts("&lt;script&gt;alert(&quot;<mark>zebrafish</mark>&quot;)&lt;/script&gt; x &amp;amp; y");
    expect(parts.map((p) => p.text).join("")).toBe('alert("zebrafish") x & y');
    expect(parts.filter((p) => p.match).map((p) => p.text)).toEqual(["zebrafish"]);
    expect(text("a </mark>b <mark>c")).toBe("a b [c]");
    expect(snippetParts("")).toEqual([]);
  });
});

describe("polish.css", () => {
  const css = readFileSync("app/styles/polish.css", "utf8");

  it("is linked from the root after the other style sheets", () => {
    const root = readFileSync("app/root.tsx", "utf8");
    expect(root).toContain('import polish from "./styles/polish.css?url";');
    const links = root.slice(root.indexOf("export const links"), root.indexOf("];", root.indexOf("export const links")));
    const sheets = [...links.matchAll(/rel: "stylesheet", href: (\w+)/g)].map((m) => m[1]);
    expect(sheets.at(-1)).toBe("polish");
  });

  it("lines the landing page's feature cards up and styles the NPS card with the theme's variables", () => {
    expect(css).toMatch(/\.features \.card \+ \.card \{ margin-top: 0; \}/);
    expect(css).toMatch(/\.nps-survey fieldset \{ border: 0;/);
    // Colours only through app.css's variables, so both themes apply.
    expect(css.replace(/\/\*[\s\S]*?\*\//g, "")).not.toMatch(/#[0-9a-f]{3,8}\b|rgb\(/i);
  });
});
