// @vitest-environment jsdom
import { beforeAll, describe, expect, it } from "vitest";
import type { BuiltinContext } from "~/ai/builtin/contract";
import { label, text, wireframe } from "~/ai/builtin/mermaid";
import { DIAGRAM_TYPES, type DiagramType } from "~/ai/schemas";
import { FULL_PRD, MESSY_PRD, THIN_PRD } from "../support/prd-fixtures";

/**
 * The offline drafter's diagrams must be accepted by Mermaid's own parser.
 * Mermaid 11 runs in jsdom as is (DOMPurify finds jsdom's window); `parse`
 * rejects on invalid source, which the last tests prove.
 */

type Mermaid = typeof import("mermaid")["default"];
let mermaid: Mermaid;
beforeAll(async () => {
  mermaid = (await import("mermaid")).default;
  mermaid.initialize({ startOnLoad: false, securityLevel: "strict" });
});

const ctx: BuiltinContext = { memories: [] };

const HOSTILE = `# Quotes "and" <tags> & [brackets]; end

Preamble with %% a comment marker, #hash; and \`code\` -> arrows --> and ==> too.

## Target Users
- **Zoë "the admin"**: manages [teams] (Σ ≥ 10); uses -> everything
- end: a persona called end
- Café owner, Müller & Søn: 日本語のユーザー

## Requirements
- Must: Upload files (PDF; DOCX) -> see "preview" in < 2s; 100% of the time
- Should: A --> B ==> C -. D .- E ||| F {curly} (round) [square]
- Could: subgraph end click call style classDef linkStyle
- %%{init: {"theme": "dark"}}%%
- 🚀 emoji 🎉 only and a very very very very very very very very very very very long requirement line that goes on
- participant X as Y; note over A: loop alt opt par
- a: b: c: d #1 #2 ; ; ;

## Goals
- Reach 30% "activation" by Q3; p95 < 200ms

## Risks
- Vendor -> API change
`;

const INPUTS: [string, string][] = [
  ["full PRD", FULL_PRD],
  ["messy PRD", MESSY_PRD],
  ["thin PRD", THIN_PRD],
  ["empty string", ""],
  ["whitespace", "   \n\n  "],
  ["hostile text", HOSTILE],
  ["only a title with symbols", '# "Quoted" ; title -> with #hash'],
  ["plain paragraph", 'We need a way for people to "share" things; quickly -> safely. Also: 50% off?'],
];

describe("wireframe: Mermaid accepts every diagram", () => {
  for (const type of DIAGRAM_TYPES) {
    for (const [name, content] of INPUTS) {
      it(`${type} from ${name}`, async () => {
        const src = wireframe({ content, diagramType: type }, ctx);
        expect(src).not.toMatch(/```/);
        await expect(mermaid.parse(src), src).resolves.toBeTruthy();
      });
    }
    it(`${type} focused on a section`, async () => {
      for (const section of ["Requirements", "Target Users", "Risks", "No such section"]) {
        const src = wireframe({ content: HOSTILE, diagramType: type, section }, ctx);
        await expect(mermaid.parse(src), src).resolves.toBeTruthy();
      }
    });
  }
});

/** Deterministic pseudo-random PRDs built from characters and words that mean something to Mermaid. */
function fuzzDoc(seed: number) {
  let x = seed;
  const next = () => ((x = (x * 1103515245 + 12345) % 2147483648), x / 2147483648);
  const pick = <T>(list: T[]) => list[Math.floor(next() * list.length)]!;
  const tokens = [
    '"',
    "'",
    ";",
    ":",
    "#",
    "%%",
    "[",
    "]",
    "(",
    ")",
    "{",
    "}",
    "<",
    ">",
    "|",
    "->",
    "-->",
    "==>",
    "-.",
    "&",
    "\\",
    "`",
    "end",
    "subgraph",
    "participant",
    "as",
    "note",
    "loop",
    "section",
    "title",
    "click",
    "style",
    "é",
    "日本",
    "🚀",
    "ß",
    "Ω",
    "—",
    "…",
    "100%",
    "p95",
    "x",
    "users",
    "As a user, I want",
  ];
  const line = () => Array.from({ length: 1 + Math.floor(next() * 8) }, () => pick(tokens)).join(pick([" ", "", "  "]));
  const out = [`# ${line()}`];
  for (const title of ["Target Users", "Requirements", "Goals", line()]) {
    out.push("", `## ${title}`);
    for (let i = 0; i < 1 + Math.floor(next() * 4); i++) out.push(`${pick(["- ", "* ", "1. ", ""])}${line()}`);
  }
  return out.join("\n");
}

describe("wireframe: Mermaid accepts diagrams of generated hostile PRDs", () => {
  for (let seed = 1; seed <= 12; seed++) {
    it(`seed ${seed}`, async () => {
      const content = fuzzDoc(seed);
      for (const type of DIAGRAM_TYPES) {
        const src = wireframe({ content, diagramType: type }, ctx);
        await expect(mermaid.parse(src), `${type}\n${src}`).resolves.toBeTruthy();
      }
    });
  }
});

describe("wireframe: shape and grounding", () => {
  const starts: Record<DiagramType, string> = {
    user_flow: "flowchart TD",
    system_architecture: "flowchart LR",
    screen_layout: "flowchart TB",
    data_flow: "flowchart LR",
    sequence: "sequenceDiagram",
    journey_map: "journey",
  };

  it("starts each type with its header and is deterministic", () => {
    for (const type of DIAGRAM_TYPES) {
      const src = wireframe({ content: FULL_PRD, diagramType: type }, ctx);
      expect(src.split("\n")[0]).toBe(starts[type]);
      expect(wireframe({ content: FULL_PRD, diagramType: type }, ctx)).toBe(src);
    }
  });

  it("uses the PRD's requirements, users and title", () => {
    const flow = wireframe({ content: FULL_PRD, diagramType: "user_flow" }, ctx);
    expect(flow).toContain("Managers approve or reject a report");
    expect(flow).toContain("Employee: start in Team Expense Reports");
    const seq = wireframe({ content: FULL_PRD, diagramType: "sequence" }, ctx);
    expect(seq).toContain("actor U as Employee");
    expect(seq).toContain("participant D as Database");
    const layout = wireframe({ content: FULL_PRD, diagramType: "screen_layout" }, ctx);
    expect(layout).toMatch(/subgraph s1\["Area 1: Employees capture a receipt photo/);
    expect(layout).toContain('"the amount is read from the image"');
    expect(flow).not.toContain("Must:");
    const journey = wireframe({ content: FULL_PRD, diagramType: "journey_map" }, ctx);
    expect(journey).toContain("title Team Expense Reports");
    expect(journey).toMatch(/Cut reimbursement time from 14 days to 5 days.*: 5: Employee, Manager, Finance admin/);
  });

  it("focuses on the section asked for", () => {
    const src = wireframe({ content: FULL_PRD, diagramType: "user_flow", section: "risks" }, ctx);
    expect(src).toContain("OCR misreads amounts");
    expect(src).not.toContain("Managers approve");
  });

  it("keeps labels short and free of quotes, semicolons and hashes", () => {
    expect(label('say "hi"; #1 [x] -> y')).toBe("say 'hi' 1 x y");
    expect(label("x".repeat(200)).length).toBeLessThanOrEqual(60);
    expect(text("a: b; c # d -> e %% f")).toBe("a b c d e % f");
    for (const type of DIAGRAM_TYPES) {
      const src = wireframe({ content: HOSTILE, diagramType: type }, ctx);
      for (const l of src.split("\n")) expect(l.replace(/^\s*(?:\w+\s*)?/, "")).not.toMatch(/;|#/);
      for (const m of src.matchAll(/"([^"]*)"/g)) expect(m[1]!.length).toBeLessThanOrEqual(60);
    }
  });
});

describe("the Mermaid parser check itself", () => {
  it("rejects broken diagrams, so the tests above can fail", async () => {
    await expect(mermaid.parse('flowchart TD\n  n1["unclosed --> n2')).rejects.toThrow();
    await expect(mermaid.parse("sequenceDiagram\n  A->>: missing target")).rejects.toThrow();
    await expect(mermaid.parse("journey\n  title T\n  section S\n    Task without a score")).rejects.toThrow();
    await expect(mermaid.parse("journey\n  title T\n  section S: with a colon\n    Task: 3: Me")).rejects.toThrow();
    await expect(mermaid.parse("not a diagram at all")).rejects.toThrow();
  });

  it("accepts a known-good diagram", async () => {
    await expect(mermaid.parse('flowchart LR\n  n1["a"] --> n2["b"]')).resolves.toBeTruthy();
  });
});
