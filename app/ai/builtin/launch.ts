import type { LaunchContentType } from "../schemas";
import type { BuiltinContext } from "./contract";
import { shorten } from "~/utils/md-doc";
import { readPrd } from "./prd-facts";
import { actionOf, article, lcFirst, persona, trimEnd, ucFirst } from "./phrases";
import { richer, story } from "./stories";

/**
 * Launch content in each genre's own shape, filled from the PRD's title,
 * problem, users, goals and requirements. Facts the PRD does not hold
 * (names, dates, quotes, prices, links) stay as [placeholders].
 */

interface Launch {
  name: string;
  oneLiner: string;
  /** What follows "<name>, which …" / "<name>: …" in an announcement. */
  tagline: string;
  /** The role named for each feature, when there is one. */
  roles: (string | undefined)[];
  says: string[];
  problem: string[];
  release: string[];
  audience: string;
  personas: string[];
  features: string[];
  goals: string[];
  risks: string[];
  questions: string[];
}

const joinList = (list: string[]) => (list.length < 2 ? (list[0] ?? "") : `${list.slice(0, -1).join(", ")} and ${list.at(-1)}`);

function facts(content: string, ctx: BuiltinContext): Launch {
  const f = readPrd(content, ctx);
  const features = f.capabilities.length ? f.capabilities.map((c) => ucFirst(actionOf(c))) : f.requirements;
  const audience = f.personas.length ? joinList(f.personas) : "[target audience]";
  const first = f.capabilities[0];
  const oneLiner =
    ctx.projectDescription?.trim() ||
    (first ? `${f.title} lets ${f.personas.length ? audience : "teams"} ${lcFirst(actionOf(first))}` : `${f.title}: [one-line description]`);
  const desc = ctx.projectDescription?.trim();
  const tagline = desc ? `: ${lcFirst(trimEnd(desc))}` : first ? `, which ${trimEnd(oneLiner).slice(f.title.length + 1)}` : "";
  return {
    name: f.title,
    oneLiner: trimEnd(oneLiner),
    tagline,
    roles: f.capabilities.map((c) => richer(c.role, f.personas)).slice(0, 6),
    // Each feature as its story says it: who wants it and what they want ("to see …", "the product to send …").
    says: f.capabilities.slice(0, 6).map((c) => {
      const s = story(c, { personas: f.personas, goals: [], product: f.title });
      const want = /^As an? .+?, I want (.+), so that/.exec(s.asA)?.[1] ?? "";
      if (/^the product to /.test(want)) return `${f.title} can ${want.replace(/^the product to /, "")}.`;
      return want.startsWith("to ") ? `As ${article(s.who)} ${s.who}, I can ${want.slice(3)}.` : "";
    }),
    problem: f.problem.map(trimEnd),
    // The PRD's own release timing, so the copy never promises another date.
    release: f.release
      .map(trimEnd)
      .filter((r) => /\d|\b(?:q[1-4]|january|february|march|april|may|june|july|august|september|october|november|december|pilot|beta|ga)\b/i.test(r)),
    audience,
    personas: f.personas,
    features: features.map(trimEnd).slice(0, 6),
    goals: f.goals.map(trimEnd),
    risks: f.risks.map(trimEnd),
    questions: f.openQuestions.map((q) => q.trim()),
  };
}

export function launchContent(input: { content: string; contentType: LaunchContentType }, ctx: BuiltinContext): string {
  const l = facts(input.content, ctx);
  const text = WRITERS[input.contentType](l);
  return `${text
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim()}\n`;
}

const featureList = (l: Launch) => (l.features.length ? l.features.map((f) => `- ${f}`) : ["- [Key feature — the PRD lists no requirements yet]"]);
const problemLine = (l: Launch) => (l.problem[0] ? `${l.problem[0]}.` : "[The problem this solves, in one sentence.]");

const blog = (l: Launch) => [
  `# Introducing ${l.name}`,
  "_[Author name] · [Publish date]_",
  "",
  `${problemLine(l)} ${l.name} is built to change that.`,
  "",
  "## The problem",
  ...(l.problem.length ? l.problem.slice(0, 3).map((p) => `${p}.`) : ["[Describe the problem with a real example.]"]),
  "",
  "## What's new",
  ...featureList(l),
  "",
  "## Who it's for",
  `${l.name} is for ${l.audience}.`,
  "",
  ...(l.goals.length ? ["## What we're aiming for", ...l.goals.slice(0, 2).map((g) => `- ${g}`), ""] : []),
  "## Get started",
  l.release[0] ? `When: ${l.release[0]}. [Link to sign-up or docs]` : `${l.name} is available [date / plan]. [Link to sign-up or docs]`,
  "",
  "> “[Customer quote, with permission]” — [Customer name], [Title], [Company]",
];

const press = (l: Launch) => [
  `# [Company name] Launches ${l.name}`,
  `## ${shorten(l.oneLiner, 120)}`,
  "",
  `**[CITY], [DATE]** — [Company name] today announced ${l.name}${l.tagline || ", [one-line description]"}. ${problemLine(l)}`,
  "",
  `With ${l.name}, ${l.audience} can:`,
  ...featureList(l),
  "",
  `“[Quote on why this matters now],” said [Spokesperson name], [Title] at [Company name].`,
  "",
  ...(l.goals.length ? [`The goal: ${lcFirst(l.goals[0]!)}.`, ""] : []),
  "“[Customer or partner quote],” said [Customer name], [Title] at [Customer company].",
  "",
  "**Availability**",
  l.release[0] ? `${l.release[0]}. [Plans / pricing]` : `${l.name} is available [date] on [plans / pricing].`,
  "",
  "**About [Company name]**",
  "[Company boilerplate: what the company does, for whom, founded when, headquartered where.]",
  "",
  "**Media contact**",
  "[Name] · [Email] · [Phone]",
  "",
  "###",
];

/** A post of at most 280 characters: the variable part is cut to fit. */
function post(make: (part: string) => string, part: string) {
  // Cut a long part to a post's length first: ten characters a step from 500,000 was quadratic.
  let p = part.length > 280 ? shorten(part, 280) : part;
  while (make(p).length > 280 && p.length > 10) p = shorten(p, p.length - 10);
  return make(p);
}

const social = (l: Launch) => {
  const posts: [string, string][] = [
    ["Announcement", post((p) => `Introducing ${l.name}${p}. [link]`, l.tagline || ": [one-line description]")],
    ["The problem", post((p) => `${p}. ${l.name} changes that. [link]`, l.problem[0] ?? "[The problem in one line]")],
    ...l.features.slice(0, 3).map((f, i): [string, string] => [`Feature ${i + 1}`, post((p) => `New in ${l.name}: ${p}. [link]`, lcFirst(f))]),
  ];
  if (l.personas.length) posts.push(["Who it's for", post((p) => `Built for ${p}. See what ${l.name} does for you: [link]`, l.audience)]);
  if (l.goals[0]) posts.push(["The goal", post((p) => `Our aim with ${l.name}: ${p}. [link]`, lcFirst(l.goals[0]!))]);
  return [
    `# Social posts: ${l.name}`,
    "_Each post is under 280 characters. Replace [link] before posting._",
    "",
    ...posts.flatMap(([label, text], i) => [`### Post ${i + 1} — ${label}`, text, "", `_${text.length} characters_`, ""]),
  ];
};

const email = (l: Launch) => [
  `**Subject:** Introducing ${l.name}`,
  `**Preview text:** ${shorten(l.oneLiner, 90)}`,
  "",
  "Hi [First name],",
  "",
  `${problemLine(l)} We built ${l.name} to fix that.`,
  "",
  "**What you can do now:**",
  ...featureList(l),
  "",
  ...(l.goals.length ? [`**Why it matters:** ${l.goals[0]}.`, ""] : []),
  `**[Button: Try ${l.name}]** → [link]`,
  "",
  "Questions? Reply to this email and we'll help.",
  "",
  "[Your name]",
  "[Title], [Company name]",
];

const demo = (l: Launch) => {
  const who = l.personas[0] ? (persona(l.personas[0]) ?? l.personas[0]) : "[user]";
  const steps = [
    ["Set the scene", `“${problemLine(l)}”`, l.problem[0] ? "[How this is done today]" : "[The current workaround]"],
    ...l.features.map((f, i) => {
      const as = l.roles[i] ?? who;
      return [f, `“${l.says[i] || `As ${article(as)} ${as}, I can ${lcFirst(f)}.`}”`, `[The screen where you ${lcFirst(f)}]`];
    }),
    ["Close with the outcome", l.goals[0] ? `“Our target: ${lcFirst(l.goals[0])}.”` : "“[The outcome customers get]”", "[Summary screen or result]"],
  ];
  return [
    `# Demo script: ${l.name}`,
    `**Length:** [X minutes] · **Presenter:** [Name] · **Audience:** ${l.audience}`,
    "",
    "## Before you start",
    "- A demo account with [sample data] loaded.",
    "- [Starting screen] open, notifications off.",
    "",
    "## Script",
    ...steps.flatMap(([title, say, show], i) => [`${i + 1}. **${title}** ([~1 min])`, `   - _Say:_ ${say}`, `   - _Show:_ ${show}`]),
    "",
    "## Likely questions",
    ...[...l.questions, ...l.risks].slice(0, 4).map((q) => `- **Q:** ${/\?$/.test(q) ? q : `What about: ${lcFirst(trimEnd(q))}?`} — **A:** [answer]`),
    ...(l.questions.length || l.risks.length ? [] : ["- **Q:** [A question you expect] — **A:** [answer]"]),
  ];
};

const FIXED = /\b(fix|fixes|fixed|resolve|prevent|correct|bug|crash|error)\b/i;
const CHANGED = /\b(change|update|improve|replace|rename|move|speed up|faster|redesign|simplify|now)\b/i;

const changelog = (l: Launch) => {
  const fixed = l.features.filter((f) => FIXED.test(f));
  const changed = l.features.filter((f) => !FIXED.test(f) && CHANGED.test(f));
  const added = l.features.filter((f) => !fixed.includes(f) && !changed.includes(f));
  const list = (items: string[]) => (items.length ? items.map((i) => `- ${i}`) : ["- Nothing recorded in the PRD."]);
  return [
    "# Changelog",
    "",
    `## [version] - [YYYY-MM-DD] — ${l.name}`,
    "",
    "### Added",
    ...list(added),
    "",
    "### Changed",
    ...list(changed),
    "",
    "### Fixed",
    ...list(fixed),
  ];
};

const WRITERS: Record<LaunchContentType, (l: Launch) => string[]> = {
  blog_post: blog,
  press_release: press,
  social_media: social,
  email_announcement: email,
  demo_script: demo,
  changelog,
};
