import type { Roadmap, TeamSize } from "../schemas";
import { type Analysis, type Requirement, analyze, lineList, plural, stripPriority } from "./analysis";
import type { BuiltinContext } from "./contract";
import { trimEndWhere } from "~/utils/literal";
import { shorten, words } from "~/utils/md-doc";
import { type Phase, methodologyOf, shape } from "./roadmap-method";
import { fitPhases, statedTimeline } from "./roadmap-timeline";

/**
 * A delivery roadmap derived from the PRD: requirements become build tasks
 * (grouped by MoSCoW or priority words, else list order), estimated from
 * their length and complexity; phase lengths are task-days divided by the
 * team's capacity; the methodology shapes names, lengths and milestones.
 */

type Priority = "must" | "should" | "could" | "wont";

/** People working in parallel, per team size (small is 2–3). */
export const TEAM_CAPACITY: Record<TeamSize, number> = {
  small: 2.5,
  medium: 5,
  large: 10,
};
const TEAM_LABEL: Record<TeamSize, string> = {
  small: "2–3 people",
  medium: "about 5 people",
  large: "about 10 people",
};

const PRIORITY: [Priority, RegExp][] = [
  ["wont", /\b(won'?t(?:[- ]have)?|will not|not now)\b/i],
  ["must", /\b(must(?:[- ]haves?)?|p0|critical|high[- ]priority|required|mvp)\b/i],
  ["should", /\b(should(?:[- ]haves?)?|p1|medium[- ]priority|important)\b/i],
  ["could", /\b(could(?:[- ]haves?)?|nice[- ]to[- ]haves?|p[23]|low[- ]priority|optional|stretch|later)\b/i],
];
const COMPLEX =
  /\b(integrat\w*|apis?|sync\w*|migrat\w*|real[- ]time|payments?|secur\w*|auth\w*|permissions?|offline|export\w*|import\w*|search\w*|notifications?|reminders?|ocr|ai|machine learning|analytics|reports?|uploads?|images?|video|encrypt\w*|currenc\w*)\b/gi;
const UI = /\b(screens?|pages?|ui|views?|dashboards?|lists?|forms?|mobile|layout|flows?|photo\w*|design)\b/i;

/** Priority from a label in the text ("Must:", "[P1]"), the sub-heading it sits under, or priority words. */
function priorityOf(r: Requirement): Priority | null {
  const head = /^(?:\[|\()?\s*(must|should|could|won'?t)|^(?:\[|\()?(p[0-3])/i.exec(r.text.trimStart());
  const tag = head?.[1] ?? head?.[2];
  if (tag)
    return tag.toLowerCase().startsWith("w")
      ? "wont"
      : tag.toLowerCase() === "p0"
        ? "must"
        : tag.toLowerCase() === "p1"
          ? "should"
          : (tag.toLowerCase().replace(/^p[23]$/, "could") as Priority);
  for (const text of [r.subheading ?? "", `${r.section} ${r.text}`]) for (const [p, re] of PRIORITY) if (re.test(text)) return p;
  return null;
}

export interface WorkItem {
  text: string;
  priority: Exclude<Priority, "wont">;
  days: number;
  ui: boolean;
}

/** Work items from the requirements, by priority; without any priority the first 60% are the must-haves. */
export function workItems(a: Analysis): {
  items: WorkItem[];
  prioritised: boolean;
  dropped: number;
} {
  let reqs: {
    text: string;
    subheading: string | null;
    section: string;
    line: number;
    isItem: boolean;
  }[] = a.requirements;
  if (!reqs.length) reqs = a.goals.map((g) => ({ ...g, section: "Goals", subheading: null }));
  const tagged = reqs.map((r) => ({ r, p: priorityOf(r as Requirement) }));
  const prioritised = tagged.some((t) => t.p);
  const mustCount = Math.ceil(tagged.length * 0.6);
  const items: WorkItem[] = [];
  let dropped = 0;
  tagged.forEach(({ r, p }, i) => {
    const priority = prioritised ? (p ?? "should") : i < mustCount ? "must" : "should";
    if (priority === "wont") return void dropped++;
    const text = shorten(stripPriority(r.text), 90);
    const complexity = Math.min(3, new Set((r.text.match(COMPLEX) ?? []).map((w) => w.toLowerCase())).size);
    items.push({
      text,
      priority,
      days: Math.min(10, 1 + Math.ceil(words(r.text).length / 8) + 2 * complexity),
      ui: UI.test(r.text),
    });
  });
  return { items, prioritised, dropped };
}

const task = (title: string, estimateDays: number, role: string) => ({
  title: shorten(title, 120),
  estimateDays,
  role,
});
const sum = (tasks: { estimateDays: number }[]) => tasks.reduce((n, t) => n + t.estimateDays, 0);

/** The iterative phases before methodology shaping, with their task-days. */
function basePhases(a: Analysis, items: WorkItem[]): Phase[] {
  const must = items.filter((i) => i.priority === "must");
  const later = items.filter((i) => i.priority !== "must");
  const users = a.personas.length ? a.personas.slice(0, 3).join(", ") : "the target users";
  const goals = a.goals.map((g) => trimEndWhere(shorten(g.text, 100), (c) => c === "." || c === ";"));

  const discovery = [
    ...a.openQuestions.slice(0, 3).map((q) => task(`Answer open question: ${q.text}`, 1, "product")),
    ...(a.todos ? [task(`Resolve ${plural(a.todos, "TODO/TBD marker")} in the PRD`, Math.ceil(a.todos / 2), "product")] : []),
    ...(items.length ? [] : [task("Write the requirements: the PRD lists none yet", 3, "product")]),
    task(
      `Design the flows for ${users}${must.some((i) => i.ui) ? ` (${plural(must.filter((i) => i.ui).length, "must-have screen")})` : ""}`,
      Math.max(2, Math.ceil(must.length / 2) + 1),
      "design",
    ),
    task(
      `Technical design: ${a.techAreas.length ? a.techAreas.join(", ") : "architecture and data model"}`,
      2 + Math.floor(a.techAreas.length / 2),
      "engineering",
    ),
  ];
  const build = (list: WorkItem[], prefix = "Build") => {
    const tasks = list.map((i) => task(`${prefix}${i.priority === "could" ? " (could-have)" : ""}: ${i.text}`, i.days, "engineering"));
    if (list.some((i) => i.ui))
      tasks.push(task(`UI design details for ${plural(list.filter((i) => i.ui).length, "item")}`, Math.ceil(list.filter((i) => i.ui).length / 2), "design"));
    tasks.push(task(`Test against acceptance criteria (${plural(list.length, "item")})`, Math.max(1, Math.ceil(sum(tasks) * 0.25)), "QA"));
    return tasks;
  };
  const phases: Phase[] = [
    {
      kind: "discovery",
      name: "Discovery & design",
      goal: a.openQuestions.length
        ? `Answer ${plural(a.openQuestions.length, "open question")} and design the must-haves`
        : "Design the must-haves and the technical approach",
      tasks: discovery,
      criteria: a.openQuestions.length
        ? `Answered: ${a.openQuestions
            .slice(0, 2)
            .map((q) => shorten(q.text, 70))
            .join("; ")}`
        : must.length
          ? `Designs and technical approach agreed for ${plural(must.length, "must-have")}`
          : "Requirements written; designs and technical approach agreed",
    },
    {
      kind: "build",
      name: "Build must-haves (MVP)",
      goal: must.length ? `Deliver the ${plural(must.length, "must-have requirement")}` : "Deliver a first working version",
      tasks: must.length ? build(must) : [task(`Build a first version of ${a.title}`, 5, "engineering"), task("Test the first version", 2, "QA")],
      criteria: `${must.length ? `${plural(must.length, "must-have")} accepted` : "A first working version accepted"}${
        goals[0] ? `; on track for: ${goals[0]}` : ""
      }`,
    },
  ];
  if (later.length)
    phases.push({
      kind: "build",
      name: "Build should-haves",
      goal: `Deliver ${plural(later.length, "further requirement")}`,
      tasks: build(later),
      criteria: `${plural(later.length, "requirement")} accepted${goals[1] ? `; on track for: ${goals[1]}` : ""}`,
    });
  const buildDays = sum(phases.slice(1).flatMap((p) => p.tasks.filter((t) => t.role === "engineering")));
  phases.push({
    kind: "harden",
    name: "Beta & hardening",
    goal: `Beta with ${users}; fix what it finds`,
    tasks: [
      task(`Beta with ${users}`, 5, "product"),
      task("Fix issues found in beta", Math.max(2, Math.ceil(buildDays * 0.2)), "engineering"),
      task(
        a.stories ? `Verify the acceptance criteria of ${plural(a.stories, "user story", "user stories")}` : "Regression test the release",
        Math.max(2, Math.ceil(a.stories / 2)),
        "QA",
      ),
      ...a.techAreas
        .filter((t) => t === "performance" || t === "security")
        .map((t) => task(`${t === "performance" ? "Performance" : "Security"} review against the PRD's requirements`, 2, "engineering")),
    ],
    criteria: a.stories ? `${plural(a.stories, "user story", "user stories")} pass acceptance in beta` : "No open high-severity issues from beta",
  });
  phases.push({
    kind: "launch",
    name: "Launch",
    goal: `Release ${a.title} and measure the goals`,
    tasks: [
      task("Release and monitor", 2, "engineering"),
      task("Launch communication and help docs", 2, "product"),
      ...goals.slice(0, 3).map((g) => task(`Measure: ${g}`, 1, "product")),
    ],
    criteria: goals.length ? goals.slice(0, 3).join("; ") : "Released to all target users; goals to be defined in the PRD",
  });
  return phases;
}

export function roadmap(input: { prdContent: string; teamSize: TeamSize; methodology: string }, ctx: BuiltinContext): Roadmap {
  const a = analyze(input.prdContent, ctx);
  const { items, prioritised, dropped } = workItems(a);
  const method = methodologyOf(input.methodology);
  const capacity = TEAM_CAPACITY[input.teamSize];
  const estimated = shape(basePhases(a, items), method, capacity);
  const estimate = estimated.reduce((n, p) => n + p.durationWeeks, 0);
  // The PRD's own timeline wins over the size estimate; a gap between them is a risk, said plainly.
  const stated = statedTimeline(a.doc);
  const phases = stated ? fitPhases(estimated, stated.weeks) : estimated;
  const totalWeeks = phases.reduce((n, p) => n + p.durationWeeks, 0);
  const count = (p: Priority) => items.filter((i) => i.priority === p).length;
  const risks = [
    ...a.risks.slice(0, 5).map((r) => shorten(r.text, 160)),
    ...a.openQuestions.slice(0, 3).map((q) => `Schedule risk: the open question “${shorten(q.text, 90)}” may change scope.`),
    ...(a.todos
      ? [
          `Schedule risk: ${plural(a.todos, "TODO/TBD marker")} in the PRD (${lineList(
            a.check.issues.filter((i) => i.rule === "open_todo"),
          )}) ${a.todos === 1 ? "leaves" : "leave"} scope undecided.`,
        ]
      : []),
    ...(items.length && !prioritised ? ["The PRD states no priorities: must-haves were taken in list order."] : []),
    ...(a.requirements.length ? [] : ["The PRD lists no requirements: build phases are placeholders until they are written."]),
    ...(stated && estimate > stated.weeks
      ? [
          `The PRD's timeline (“${shorten(stated.quote, 100)}”) gives ${plural(stated.weeks, "week")}; the requirements' size suggests ${estimate}: cut scope or move the date.`,
        ]
      : []),
    "Estimates come from requirement length and complexity, not from engineering: re-estimate after technical design.",
  ];
  const taskDays = phases.reduce((n, p) => n + sum(p.tasks), 0);
  return {
    title: `${a.title}: delivery roadmap`,
    summary: `${totalWeeks}-week ${method.label} plan for ${a.title} with a ${input.teamSize} team (${TEAM_LABEL[input.teamSize]}): ${
      items.length
        ? `${plural(items.length, "requirement")} (${count("must")} must, ${count("should")} should, ${count("could")} could${
            dropped ? `, ${dropped} won't` : ""
          })`
        : "no requirements written yet"
    } in ${plural(phases.length, "phase")}, ${taskDays} task-days in total.${
      stated
        ? ` Fitted to the PRD's timeline: “${shorten(
            trimEndWhere(stated.quote, (c) => c === "." || c === ";" || c === "!"),
            100,
          )}”.`
        : ""
    }`,
    methodology: method.name,
    teamSize: input.teamSize,
    totalWeeks,
    phases,
    risks,
  };
}
