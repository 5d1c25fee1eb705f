import type { StorySource } from "../schemas";
import type { BuiltinContext } from "./contract";
import { type Doc, type DocSection, plainInline, readDoc } from "~/utils/md-doc";
import { proseSentences as sentences } from "~/ai/nlp/sentences";
import { namedPersonas } from "./personas";
import { type Capability, actorClauses, capabilityOf, persona, roles, stripMarkers, trimEnd } from "./phrases";

/**
 * What the writing tools (stories, specs, launch content) need from a PRD:
 * its title, problem, users, goals, requirements and the rest, read from
 * the sections by their titles. Everything is the document's own text.
 */

export interface PrdFacts {
  doc: Doc;
  title: string;
  problem: string[];
  personas: string[];
  userLines: string[];
  goals: string[];
  requirements: string[];
  capabilities: Capability[];
  nfrs: string[];
  risks: string[];
  outOfScope: string[];
  release: string[];
  /** Gaps the PRD itself names (open questions, "_Open question:_" lines). */
  openQuestions: string[];
}

const NOISE = /^(?:_?open question:?_?|_?source:?_?|given\b|acceptance criteria|_?detail to add|_?metric to define|\*\*roles named|\| ?-)/i;

/** The statements of a section: its list items, then the sentences of its other lines (tables and prompts left out). */
export function statements(section: DocSection | undefined): string[] {
  if (!section) return [];
  const items = section.items.map((i) => i.text);
  const prose = section.lines.filter((l) => l.text.trim() && !/^\s*(?:[-*+]|\d+[.)])\s+|^\s*#|^\s*\|/.test(l.text)).flatMap((l) => sentences(l.text));
  return [...items, ...prose].map((s) => plainInline(s).trim()).filter((s) => s.length > 2 && !NOISE.test(s));
}

const sectionsLike = (doc: Doc, include: RegExp, exclude?: RegExp) =>
  doc.sections.filter((s) => s.title && include.test(s.title) && !(exclude && exclude.test(s.title)));
const gather = (doc: Doc, include: RegExp, exclude?: RegExp) => sectionsLike(doc, include, exclude).flatMap(statements);

const REQ = /requirement|feature|capabilit|solution|epic|stor(?:y|ies)|use case|functionality|scope/i;
const NOT_REQ = /non-?functional|non-goals?|out of scope/i;
const STORY_TITLE = /stor(?:y|ies)|acceptance|use case/i;
const AS_A = /^as an? (.+?),\s*i (?:want|need|would like) (.+?)(?:,?\s*so that (.+))?$/i;

const MINOR = new Set("the and for with from that this into each every all any can will must should able want let allow enable product".split(" "));
const coreWords = (text: string) => new Set((text.toLowerCase().match(/[a-z0-9][a-z0-9'-]+/g) ?? []).filter((w) => w.length > 2 && !MINOR.has(w)));
const subset = (a: Set<string>, b: Set<string>) => [...a].every((w) => b.has(w));

export function readPrd(content: string, ctx: BuiltinContext, source: StorySource = "prd"): PrdFacts {
  const doc = readDoc(content);
  const headed = doc.lines.some((l) => /^\s*#{1,6}\s/.test(l.text));
  const title = ctx.projectName?.trim() || (headed && doc.title) || (source === "prd" ? "the product" : "the feature");
  const all = doc.sections.flatMap(statements);
  let requirements: string[];
  if (source !== "prd") {
    const items = doc.sections.flatMap((s) => s.items.map((i) => i.text));
    requirements = items.length ? items : sentences(doc.plain).filter((s) => s !== doc.title);
  } else {
    // A story section gives its "As a …" lines, not its acceptance criteria.
    requirements = sectionsLike(doc, REQ, NOT_REQ)
      .flatMap((section) => {
        const list = statements(section);
        if (!STORY_TITLE.test(section.title)) return list;
        // A story that names its source requirement stands for that requirement, in its words.
        const sources = section.lines.map((l) => /_Source:_\s*“(.+)”/.exec(l.text)?.[1]).filter((x): x is string => Boolean(x));
        if (sources.length) return sources;
        return list.some((l) => AS_A.test(trimEnd(l))) ? list.filter((l) => AS_A.test(trimEnd(l))) : list;
      })
      .filter((s) => !/^(?:in scope|non-goals)$/i.test(s));
    if (!requirements.length) requirements = all.filter((s) => /\b(must|should|shall|can|will|needs? to|able to)\b/i.test(s));
    if (!requirements.length && !doc.sections.some((s) => s.title)) requirements = all;
  }
  requirements = [...new Set(requirements.map((r) => stripMarkers(r)).filter((r) => r.length > 2))];

  const userLines = gather(doc, /users?|personas?|audience|customers?|buyers?|consumers/i, /stor(?:y|ies)|experience/i);
  const named = namedPersonas(userLines);
  const personas = named.length ? named.map((p) => p.name) : roles(all.join(". ")).slice(0, 3);

  const capabilities: Capability[] = [];
  const seen = new Set<string>();
  const cores: Set<string>[] = [];
  const add = (c: Capability | undefined) => {
    if (!c || seen.has(c.want.toLowerCase())) return;
    // A story written from a requirement and the requirement itself are one capability.
    const core = coreWords(c.want);
    if (core.size && cores.some((o) => subset(core, o) || subset(o, core))) return;
    seen.add(c.want.toLowerCase());
    cores.push(core);
    capabilities.push(c);
  };
  for (const r of requirements) {
    const story = AS_A.exec(trimEnd(r));
    if (story) {
      const want = story[2]!.trim();
      const cap = capabilityOf(want.replace(/^(?:the (?:product|system|app) )?to\s+/i, "")) ?? { object: want, want, source: r };
      add({ ...cap, role: persona(story[1]!) ?? story[1]!, want: /^(?:the (?:product|system|app) )?to\s/i.test(want) ? want : cap.want, source: r });
      continue;
    }
    const clauses = actorClauses(r);
    if (clauses.length > 1) clauses.forEach(add);
    else add(capabilityOf(r));
  }

  return {
    doc,
    title,
    // The problem section's own words; the overview's "Problem:" summary only when there is no such section.
    problem: (gather(doc, /problem|pain|motivation|why/i).length ? gather(doc, /problem|pain|motivation|why/i) : gather(doc, /background|overview|summary/i))
      .map((p) => p.replace(/^\**problem:\**\s*/i, ""))
      .filter((p) => !/^\**(?:for|success looks like|key capabilities):/i.test(p)),
    personas,
    userLines,
    goals: gather(doc, /goals?|metrics?|success|kpis?|objectives?|outcomes?/i, /non-goals?/i),
    requirements,
    capabilities,
    nfrs: gather(doc, /non-?functional|performance|security|privacy|reliab|accessib|scal|latency|constraints|compliance/i),
    risks: gather(doc, /risks?|mitigation|failure|guardrail/i),
    outOfScope: gather(doc, /non-goals?|out of scope/i),
    release: gather(doc, /release|launch|rollout|milestone|timeline|go-to-market/i),
    openQuestions: [
      ...gather(doc, /open questions?|unknowns/i),
      ...doc.lines.filter((l) => /_open question:_/i.test(l.text)).map((l) => plainInline(l.text).replace(/^open question:\s*/i, "")),
    ].filter((q, i, list) => list.indexOf(q) === i),
  };
}
