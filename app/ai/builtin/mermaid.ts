import type { DiagramType } from "../schemas";
import { type Analysis, analyze, stripPriority } from "./analysis";
import type { BuiltinContext } from "./contract";
import { trimEndWhere } from "~/utils/literal";
import { type DocSection, findSection, plainInline, sameTitle, shorten } from "~/utils/md-doc";
import { proseSentences as sentences } from "~/ai/nlp/sentences";
import { sectionUnits } from "~/prd-rules/rules";

/**
 * Mermaid diagrams drawn from the PRD: its users (personas), its steps (the
 * requirements, or the items of the section asked for), its goals and its
 * technical areas. Every label goes through `label`/`text` so the source is
 * always valid Mermaid: node ids are n1, n2…, flowchart labels are quoted,
 * and characters with a meaning to Mermaid (quotes, #, ;, brackets, arrows)
 * are removed. Empty input still gives a small valid diagram.
 */

interface Model {
  title: string;
  users: string[];
  steps: string[];
  goals: { text: string; measured: boolean }[];
  problems: string[];
  externals: string[];
  data: boolean;
}

const MAX_STEPS = 6;

/** Characters kept in labels: letters, digits, marks, spaces and plain punctuation. */
function clean(text: string, keep: string) {
  return text
    .normalize("NFC")
    .replace(/["“”„`´]/g, "'")
    .replace(/<-+>?|-+>|=+>|-{2,}|\.{3,}/g, " ")
    .replace(new RegExp(`[^\\p{L}\\p{N}\\p{M} ${keep}]`, "gu"), " ")
    .replace(/%{2,}/g, "%")
    .replace(/\s+/g, " ")
    .trim();
}

/** A flowchart label, to be put in double quotes. */
export const label = (text: string, max = 60) => shorten(clean(text, ".,'!?/+&*@=_%:-"), max) || "…";
/** Text for sequence messages, participant aliases and journey lines: no colon, no "%%" comment marker. */
export const text = (value: string, max = 60) => shorten(clean(value, ".,'!?/+&*@=_%-").replace(/^[-%\s]+/, ""), max).replace(/…$/, "") || "step";

function model(content: string, section: string | undefined, ctx: BuiltinContext): Model {
  const a: Analysis = analyze(content, ctx);
  const focus = section ? (a.doc.sections.find((s) => s.title && sameTitle(s.title, section)) ?? findSection(a.doc, section)) : undefined;
  const unitsOf = (s: DocSection) => {
    const units = sectionUnits(s).map((u) => u.text);
    return units.length ? units : sentences(s.body);
  };
  // Functional requirements describe the flow better than the stories that restate them.
  const functional = a.requirements.filter((r) => !/stor/i.test(r.section));
  const requirements = functional.length ? functional : a.requirements;
  let steps = (focus ? unitsOf(focus) : requirements.map((r) => r.text)).map(stripPriority);
  if (!steps.length) steps = a.goals.filter((g) => !g.text.includes("|")).map((g) => g.text);
  if (!steps.length) steps = a.doc.sections.filter((s) => s.title).map((s) => s.title);
  if (!steps.length) steps = sentences(a.doc.plain).filter((s) => s !== a.doc.title);
  const problem = a.doc.sections.find((s) => s.title && /problem|background|context|pain/i.test(s.title));
  const externals = a.doc.lines
    .filter((l) => !/^\s*#/.test(l.text))
    .map((l) => stripPriority(plainInline(l.text.replace(/^\s*(?:[-*+]|\d+[.)]|>)\s+/, ""))))
    .filter((t) => /\b(integrat\w*|third[- ]party|provider|external|vendor)\b/i.test(t))
    .slice(0, 2);
  return {
    title: (focus ? `${a.title}: ${focus.title}` : a.title) || "Product",
    users: a.personas.length ? a.personas.slice(0, 3) : ["User"],
    steps: steps.slice(0, MAX_STEPS),
    goals: a.goals.slice(0, 3).map((g) => ({ text: g.text, measured: /\d/.test(g.text) })),
    problems: problem ? unitsOf(problem).slice(0, 2) : [],
    externals,
    data: a.techAreas.includes("data"),
  };
}

const node = (id: string, value: string, shape: "box" | "round" | "db" | "decision" = "box") => {
  const l = `"${label(value)}"`;
  return {
    box: `${id}[${l}]`,
    round: `${id}([${l}])`,
    db: `${id}[(${l})]`,
    decision: `${id}{${l}}`,
  }[shape];
};

function userFlow(m: Model) {
  const out = ["flowchart TD", `  ${node("n1", `${m.users[0]}: start in ${m.title}`, "round")}`];
  const ids = m.steps.map((s, i) => {
    out.push(`  ${node(`n${i + 2}`, s)}`);
    return `n${i + 2}`;
  });
  const check = `n${ids.length + 2}`;
  const done = `n${ids.length + 3}`;
  out.push(`  ${node(check, m.goals[0] ? `Goal met? ${m.goals[0].text}` : "Done what they came for?", "decision")}`);
  out.push(`  ${node(done, "Done", "round")}`);
  [`n1`, ...ids, check].forEach((id, i, all) => i < all.length - 1 && out.push(`  ${id} --> ${all[i + 1]}`));
  out.push(`  ${check} -->|Yes| ${done}`, `  ${check} -->|No| ${ids[0] ?? "n1"}`);
  return out.join("\n");
}

function architecture(m: Model) {
  const out = [
    "flowchart LR",
    `  ${node("n1", `Users: ${m.users.join(", ")}`)}`,
    `  subgraph s1["${label(m.title)}"]`,
    `    ${node("n2", "Client app")}`,
    `    ${node("n3", "API and backend")}`,
  ];
  const modules = m.steps.slice(0, 5).map((s, i) => {
    out.push(`    ${node(`n${i + 4}`, `Module: ${s}`)}`);
    return `n${i + 4}`;
  });
  out.push("  end");
  let next = modules.length + 4;
  const store = m.data || modules.length ? `n${next++}` : null;
  if (store) out.push(`  ${node(store, m.data ? "Database" : "Data store", "db")}`);
  const externals = m.externals.map((e) => {
    const id = `n${next++}`;
    out.push(`  ${node(id, `External: ${e}`)}`);
    return id;
  });
  out.push("  n1 --> n2", "  n2 --> n3");
  for (const id of modules) out.push(`  n3 --> ${id}`);
  if (store) for (const id of modules.length ? modules : ["n3"]) out.push(`  ${id} --> ${store}`);
  for (const id of externals) out.push(`  n3 <--> ${id}`);
  return out.join("\n");
}

function screenLayout(m: Model) {
  const out = [
    "flowchart TB",
    `  subgraph s0["${label(`Header: ${m.title}`)}"]`,
    `    ${node("n1", m.title)}`,
    `    ${node("n2", `Signed in as ${m.users[0]}`)}`,
    "  end",
  ];
  let n = 3;
  const screens = m.steps.slice(0, 4);
  screens.forEach((s, i) => {
    out.push(`  subgraph s${i + 1}["${label(`Area ${i + 1}: ${s.split(/\s+/).slice(0, 6).join(" ")}`, 50)}"]`);
    for (const part of clauses(s)) out.push(`    ${node(`n${n++}`, part)}`);
    out.push("  end");
  });
  if (!screens.length) out.push(`  subgraph s1["Main area"]`, `    ${node(`n${n++}`, "Content to be defined in the PRD")}`, "  end");
  const areas = Math.max(1, screens.length);
  for (let i = 0; i < areas; i++) out.push(`  s${i} --> s${i + 1}`);
  return out.join("\n");
}

/** The elements of a screen area: the requirement's clauses (split at "and", "with", commas), at most 3. */
function clauses(s: string) {
  const parts = trimEndWhere(s, (c) => c === "." || c === "!" || c === "?")
    .split(/,\s+|;\s+|(?<!\s)\s+(?:and|with|then)\s+/i)
    .map((p) => p.trim())
    .filter((p) => p.length > 2);
  return parts.length > 1 ? parts.slice(0, 3) : [s];
}

function dataFlow(m: Model) {
  const out = ["flowchart LR"];
  const users = m.users.map((u, i) => (out.push(`  ${node(`n${i + 1}`, u, "round")}`), `n${i + 1}`));
  let n = users.length + 1;
  const steps = (m.steps.length ? m.steps : [`Use ${m.title}`]).slice(0, 5).map((s) => {
    const id = `n${n++}`;
    out.push(`  ${node(id, s)}`);
    return id;
  });
  const store = `n${n++}`;
  out.push(`  ${node(store, `${m.title} data`, "db")}`);
  const outputs = (m.externals.length ? m.externals.map((e) => `External: ${e}`) : m.goals.map((g) => `Outcome: ${g.text}`)).slice(0, 2).map((o) => {
    const id = `n${n++}`;
    out.push(`  ${node(id, o)}`);
    return id;
  });
  for (const u of users) out.push(`  ${u} -->|input| ${steps[0]}`);
  for (const s of steps) out.push(`  ${s} -->|writes| ${store}`);
  for (const o of outputs) out.push(`  ${store} -->|feeds| ${o}`);
  out.push(`  ${store} -->|reads| ${steps.at(-1)}`);
  return out.join("\n");
}

function sequence(m: Model) {
  const out = ["sequenceDiagram", `  actor U as ${text(m.users[0]!, 40)}`, `  participant A as ${text(m.title, 40)}`, "  participant S as Backend"];
  if (m.data) out.push("  participant D as Database");
  const steps = m.steps.length ? m.steps.slice(0, 4) : [`Open ${m.title}`];
  for (const s of steps) {
    out.push(`  U->>A: ${text(s)}`, `  A->>S: ${text(`Request for ${s}`, 40)}`);
    if (m.data) out.push("  S->>D: Read or write records", "  D-->>S: Records");
    out.push("  S-->>A: Result", `  A-->>U: ${text(`Shows result of ${s}`, 40)}`);
  }
  return out.join("\n");
}

/** A journey: the problem (score 2, a pain), the steps (3), the goals (5 when measurable, else 4). */
function journey(m: Model) {
  const actors = m.users.map((u) => text(u, 30).replace(/,/g, " ")).join(", ");
  const out = ["journey", `  title ${text(m.title)}`];
  if (m.problems.length) out.push("  section Today", ...m.problems.map((p) => `    ${text(p)}: 2: ${actors}`));
  out.push("  section Using the product", ...(m.steps.length ? m.steps : [`Open ${m.title}`]).map((s) => `    ${text(s)}: 3: ${actors}`));
  if (m.goals.length) out.push("  section Outcome", ...m.goals.map((g) => `    ${text(g.text)}: ${g.measured ? 5 : 4}: ${actors}`));
  return out.join("\n");
}

const DRAW: Record<DiagramType, (m: Model) => string> = {
  user_flow: userFlow,
  system_architecture: architecture,
  screen_layout: screenLayout,
  data_flow: dataFlow,
  sequence,
  journey_map: journey,
};

export function wireframe(input: { content: string; diagramType: DiagramType; section?: string }, ctx: BuiltinContext): string {
  const draw = DRAW[input.diagramType] ?? userFlow;
  return draw(model(input.content, input.section?.trim() || undefined, ctx));
}
