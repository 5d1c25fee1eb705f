import type { StorySource } from "../schemas";
import type { BuiltinContext } from "./contract";
import { shorten, words } from "~/utils/md-doc";
import { type PrdFacts, readPrd } from "./prd-facts";
import { type Capability, actionOf, camel, entityNouns, entityOf, headNoun, httpMethod, kebabPlural, pascal, singular, trimEnd, ucFirst } from "./phrases";
import { dataModel } from "./data-model";
import { story } from "./stories";
import { TOPICS, cueScore } from "./topics";

/**
 * User stories, technical specs and code specs from a PRD (or a feature
 * description): every story, endpoint and test traces back to a sentence
 * of the input; what is guessed is labelled "proposed".
 */

export function userStories(input: { content: string; source: StorySource }, ctx: BuiltinContext): string {
  const f = readPrd(input.content, ctx, input.source);
  const out = [`# User Stories: ${f.title}`, ""];
  const personas = f.personas.length ? f.personas.join(", ") : "none named (stories use “user”)";
  out.push(`_${f.capabilities.length} stories from the ${input.source === "prd" ? "PRD's requirements" : `${input.source} text`}. Personas: ${personas}._`, "");
  const gaps: string[] = [];
  f.capabilities.slice(0, 15).forEach((c, i) => {
    const s = story(c, { personas: f.personas, goals: f.goals, product: f.title });
    out.push(
      `### Story ${i + 1}: ${s.title}`,
      `${s.asA}.`,
      "",
      "**Acceptance criteria**",
      ...s.criteria.map((x) => `- ${x}`),
      "",
      `_Source:_ “${shorten(c.source, 200)}”`,
      "",
    );
    if (!c.role && !f.personas.length) gaps.push(`Story ${i + 1}: who is the user?`);
  });
  if (!f.capabilities.length)
    out.push("_No requirements found to turn into stories. List the capabilities as bullet points (e.g. “Clerks can send reminders”) and run this again._", "");
  if (!f.goals.length) gaps.push("No goals were found, so each “so that” needs the benefit filled in.");
  if (gaps.length) out.push("## Open questions", ...gaps.map((g) => `- ${g}`), "");
  return `${out.join("\n").trim()}\n`;
}

interface Endpoint {
  method: string;
  path: string;
  name: string;
  entity: string;
  cap: Capability;
}

const ACTION_POST = /^(sync|import|escalate|merge|convert|calculate|reconcile|remind|notify|share|invite|pay|refund|charge|publish|preview)$/;
const UPDATE = /^(edit|update|change|rename|move|configure|set|customize)$/;

/** Proposed endpoints: the verb picks the method, the object's head noun the resource. */
function endpoints(f: PrdFacts): Endpoint[] {
  return f.capabilities.flatMap((cap) => {
    const entity = cap.verb ? entityOf(cap.object) : undefined;
    if (!cap.verb || !entity) return [];
    const base = `/api/${kebabPlural(entity)}`;
    let method = httpMethod(cap.verb);
    let path = base;
    const format =
      /^(?:export|download|print)$/.test(cap.verb) && headNoun(cap.object) !== undefined && !entity.endsWith(singular(headNoun(cap.object)!.toLowerCase()));
    if (format) path = `${base}/${cap.verb}`;
    else if (method === "POST" && ACTION_POST.test(cap.verb)) path = `${base}/${cap.verb}`;
    else if (method === "PATCH" && !UPDATE.test(cap.verb)) (method = "POST"), (path = `${base}/:id/${cap.verb}`);
    else if (method === "PATCH" || method === "DELETE") path = `${base}/:id`;
    return [{ method, path, name: camel(`${cap.verb} ${method === "GET" ? kebabPlural(entity) : entity}`), entity, cap }];
  });
}

/** Whether a requirement names an entity ("reminder email" in "send reminder emails"). */
const mentions = (text: string, entity: string) => {
  const ws = words(text).map(singular);
  const es = entity.split(" ");
  return ws.some((_, i) => es.every((e, j) => ws[i + j] === e));
};

const BACKGROUND = /\b(remind|reminders?|schedul|daily|weekly|monthly|nightly|automatic|automatically|every|notif|email|sync|import|batch|recurring|queue)\b/i;
const INTEGRATION = /\b(email|sms|slack|teams|erp|crm|salesforce|hubspot|quickbooks|xero|stripe|webhook|calendar|google|microsoft|sap|netsuite|jira|github)\b/i;

export function technicalSpecs(input: { prdContent: string; focusAreas: string[] }, ctx: BuiltinContext): string {
  const f = readPrd(input.prdContent, ctx);
  const eps = endpoints(f);
  const entities = [...new Set([...eps.map((e) => e.entity), ...entityNouns(f.requirements)])].slice(0, 8);
  const bg = f.requirements.filter((r) => BACKGROUND.test(r));
  const integrations = [...new Set(f.requirements.flatMap((r) => r.match(new RegExp(INTEGRATION.source, "gi")) ?? []).map((w) => w.toLowerCase()))];
  const out = [
    `# Technical Specification: ${f.title}`,
    "",
    "_Proposed from the PRD. Everything marked proposed needs an engineer's review; facts are quoted from the PRD._",
    "",
  ];
  out.push(
    "## Overview",
    ...(f.problem.length ? f.problem.slice(0, 2).map((p) => `- ${p}`) : ["- _Open question:_ the PRD states no problem; what does this solve?"]),
  );
  if (f.goals.length) out.push("", "**Goals from the PRD:**", ...f.goals.slice(0, 4).map((g) => `- ${g}`));
  out.push(
    "",
    "## Architecture Overview (proposed)",
    `- **Web client** — screens for ${
      f.capabilities.length
        ? f.capabilities
            .slice(0, 4)
            .map((c) => actionOf(c))
            .join("; ")
        : "the flows in the PRD"
    }.`,
  );
  out.push(
    `- **API service** — ${eps.length} endpoint${eps.length === 1 ? "" : "s"} below; validates input and checks permissions${f.personas.length ? ` per role (${f.personas.join(", ")})` : ""}.`,
  );
  const named = dataModel(f.requirements, entities).map((e) => e.name);
  out.push(
    `- **Database** — ${named.length ? `${named.join(", ")} (the records whose fields the requirements name; see the data model)` : "records to confirm: the requirements name no fields yet"}.`,
  );
  if (bg.length)
    out.push(
      `- **Background jobs** — for: ${bg
        .slice(0, 3)
        .map((r) => `“${trimEnd(shorten(r, 80))}”`)
        .join("; ")}.`,
    );
  if (integrations.length) out.push(`- **Integrations** — ${integrations.join(", ")} (named in the requirements).`);
  out.push("", "## Components", "| Component | Responsibility | From requirement |", "| --- | --- | --- |");
  for (const e of eps.slice(0, 12)) out.push(`| ${pascal(e.entity)}Service | ${actionOf(e.cap)} | “${shorten(e.cap.source, 80)}” |`);
  if (!eps.length) out.push("| _to define_ | The PRD's requirements name no actions yet | — |");
  out.push("", "## Data Model (proposed)");
  // Only the records and fields the requirements mention, each with the words that name it.
  const model = dataModel(f.requirements, entities);
  if (model.length) {
    out.push("| Entity | Field | Named in |", "| --- | --- | --- |");
    for (const e of model) for (const field of e.fields) out.push(`| ${e.name} | ${field.name} | “${shorten(field.source, 70)}” |`);
    out.push("", "_Identifiers, timestamps and the other fields each record needs are for engineering to decide._");
  } else
    out.push(
      "_No data model yet: the requirements name no fields of any record._",
      "",
      "_Open question:_ which records does this feature store, and with which fields?",
    );
  out.push("", "## API Endpoints (proposed)");
  if (eps.length)
    out.push(
      "| Method | Path | Purpose | Requirement |",
      "| --- | --- | --- | --- |",
      ...eps.map((e) => `| ${e.method} | \`${e.path}\` | ${ucFirst(actionOf(e.cap))} | “${shorten(e.cap.source, 70)}” |`),
    );
  else out.push("_Open question:_ which operations must the API offer?");
  out.push(
    "",
    "## Non-Functional Requirements",
    ...(f.nfrs.length ? f.nfrs.map((n) => `- ${n}`) : ["- _Open question:_ the PRD sets no performance, availability or security thresholds; what are they?"]),
  );
  for (const area of input.focusAreas.map((a) => a.trim()).filter(Boolean)) out.push("", ...focusSection(area, f));
  out.push("", "## Open Technical Questions", ...openTechnical(f, entities).map((q, i) => `${i + 1}. ${q}`));
  return `${out.join("\n").trim()}\n`;
}

function focusSection(area: string, f: PrdFacts) {
  const t = TOPICS.find((x) => x.title.test(area));
  const keys = words(area).filter((w) => w.length > 3);
  const all = [...f.requirements, ...f.nfrs, ...f.risks, ...f.problem];
  const related = [...new Set(all.filter((s) => (t && cueScore(s, t) > 0) || keys.some((k) => s.toLowerCase().includes(k.slice(0, 5)))))].slice(0, 6);
  return [
    `## ${ucFirst(area)}`,
    ...(related.length ? ["**What the PRD says:**", ...related.map((r) => `- ${r}`)] : [`- The PRD says nothing specific about ${area}.`]),
    "",
    "**To settle:**",
    `- ${t ? t.question : `What are the requirements and limits for ${area}?`}`,
    `- How will ${area} be tested before release?`,
  ];
}

function openTechnical(f: PrdFacts, entities: string[]) {
  return [
    ...f.openQuestions.slice(0, 6),
    ...(f.nfrs.length ? [] : ["Response-time and availability targets for the API."]),
    ...(entities.length ? [`Which fields and retention do ${entities.map(pascal).join(", ")} need?`] : []),
    ...(f.personas.length ? [`Which of ${f.personas.join(", ")} may call each endpoint?`] : ["Who may call each endpoint (roles and permissions)?"]),
    ...f.requirements
      .filter((r) => !/\d/.test(r) && /\b(fast|quick|many|large|scal|real-?time|soon)\b/i.test(r))
      .map((r) => `Put a number on “${shorten(r, 80)}”.`),
  ].filter((q, i, list) => list.indexOf(q) === i);
}

export function codeSpec(input: { content: string }, ctx: BuiltinContext): string {
  const f = readPrd(input.content, ctx);
  const eps = endpoints(f);
  const entities = [...new Set([...eps.map((e) => e.entity), ...entityNouns(f.requirements)])].slice(0, 8);
  const out = [`# Implementation Spec: ${f.title}`, "", "## Scope"];
  out.push(
    ...(f.requirements.length
      ? f.requirements.slice(0, 20).map((r, i) => `- **REQ-${i + 1}:** ${r}`)
      : ["- _Open question:_ no requirements found; list them in the PRD first."]),
  );
  out.push("", "## Modules (proposed)");
  for (const e of entities) {
    const reqs = f.requirements.map((r, i) => (mentions(r, e) ? `REQ-${i + 1}` : "")).filter(Boolean);
    out.push(`- \`src/${kebabPlural(e)}/\` — ${pascal(e)} records, their service and routes${reqs.length ? ` (${reqs.join(", ")})` : ""}.`);
  }
  if (!entities.length) out.push("- _Open question:_ which modules? The requirements name no records.");
  out.push("", "## Interfaces (proposed)", "```ts");
  for (const e of dataModel(f.requirements, entities)) {
    out.push(
      `export interface ${e.name} {`,
      ...e.fields.map((x) => `  ${x.name}: unknown; // “${shorten(x.source, 70)}”`),
      "  // other fields to confirm",
      "}",
      "",
    );
  }
  for (const e of eps) {
    const input = `${pascal(e.name)}Input`;
    const idField = e.path.includes(":id") ? `${camel(e.entity)}Id: string; ` : "";
    out.push(`/** ${shorten(e.cap.source, 100)} */`, `export type ${input} = { ${idField}/* fields to confirm */ };`);
    out.push(
      `export function ${e.name}(input: ${input}, actor: Actor): Promise<${pascal(e.entity)}${e.method === "GET" ? "[]" : ""}>; // ${e.method} ${e.path}`,
      "",
    );
  }
  if (!eps.length) out.push("// No actions found in the requirements; add signatures once they name what users do.");
  out.push(
    "```",
    "",
    "## Error handling",
    "- Invalid input → 400 with the field that failed; nothing is written.",
    "- Missing record → 404; a role without permission → 403.",
  );
  if (f.nfrs.length) out.push(...f.nfrs.slice(0, 4).map((n) => `- Must hold: ${n}`));
  out.push("", "## Test Plan", "| Requirement | Test | Level |", "| --- | --- | --- |");
  f.requirements.slice(0, 20).forEach((r, i) => {
    const ep = eps.find((e) => e.cap.source === r || r.includes(e.cap.source));
    const name = ep ? ep.name : `REQ-${i + 1}`;
    out.push(`| REQ-${i + 1} | \`${name}\` succeeds for valid input and matches “${shorten(r, 60)}” | ${ep ? "integration" : "acceptance"} |`);
    if (ep) out.push(`| REQ-${i + 1} | \`${name}\` rejects invalid input and unauthorised roles | unit |`);
  });
  if (f.goals.length)
    out.push(
      `| Goals | Instrument: ${f.goals
        .slice(0, 2)
        .map((g) => `“${shorten(g, 60)}”`)
        .join("; ")} | monitoring |`,
    );
  const open = openTechnical(f, entities);
  out.push("", "## Open Questions", ...open.map((q, i) => `${i + 1}. ${q}`));
  return `${out.join("\n").trim()}\n`;
}
