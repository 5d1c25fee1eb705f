import type { Roadmap } from "../schemas";

/**
 * How a methodology shapes the roadmap's phases: Scrum rounds phases to
 * 2-week sprints with sprint reviews, Kanban keeps a continuous flow,
 * waterfall renames phases into sequential stages with sign-off gates,
 * Shape Up runs 6-week cycles each followed by a 2-week cooldown; any other
 * name (agile, lean, …) is iterative. Phases are contiguous from week 1.
 */

type Task = Roadmap["phases"][number]["tasks"][number];

/** A phase before shaping: what it is, its tasks and its success criteria. */
export interface Phase {
  kind: "discovery" | "build" | "harden" | "launch";
  name: string;
  goal: string;
  tasks: Task[];
  criteria: string;
}

export interface Method {
  /** The methodology as returned (lower-case, e.g. "scrum", "shape_up", or the given name). */
  name: string;
  label: string;
  style: "scrum" | "kanban" | "waterfall" | "shape_up" | "iterative";
}

const KNOWN: Record<string, Omit<Method, "name">> = {
  scrum: { label: "Scrum", style: "scrum" },
  kanban: { label: "Kanban", style: "kanban" },
  waterfall: { label: "waterfall", style: "waterfall" },
  shape_up: { label: "Shape Up", style: "shape_up" },
  shapeup: { label: "Shape Up", style: "shape_up" },
  agile: { label: "agile", style: "iterative" },
  lean: { label: "lean", style: "iterative" },
};

export function methodologyOf(raw: string): Method {
  const key =
    raw
      .trim()
      .toLowerCase()
      .replace(/[\s-]+/g, "_") || "agile";
  const known = KNOWN[key];
  if (known) return { name: key === "shapeup" ? "shape_up" : key, ...known };
  return {
    name: key.slice(0, 40),
    label: `${raw.trim().slice(0, 40)} (iterative)`,
    style: "iterative",
  };
}

const sumDays = (tasks: Task[]) => tasks.reduce((n, t) => n + t.estimateDays, 0);
const roundUp = (n: number, step: number) => Math.ceil(n / step) * step;

/** Weeks a phase takes: its task-days over the team's weekly capacity, at least its longest task, at least 1. */
export function weeksFor(tasks: Task[], capacity: number) {
  const longest = Math.max(0, ...tasks.map((t) => t.estimateDays));
  return Math.max(1, Math.ceil(sumDays(tasks) / (capacity * 5)), Math.ceil(longest / 5));
}

interface Sized extends Phase {
  weeks: number;
  milestone: (start: number, end: number) => string;
}

const WATERFALL: Record<Phase["kind"], (i: number) => string> = {
  discovery: () => "Requirements & design",
  build: (i) => (i === 0 ? "Implementation: must-haves" : "Implementation: should-haves"),
  harden: () => "Verification",
  launch: () => "Deployment",
};
const ITERATIVE: Record<Phase["kind"], (i: number) => string> = {
  discovery: () => "Design review",
  build: (i) => (i === 0 ? "MVP demo" : "Feature-complete demo"),
  harden: () => "Beta exit review",
  launch: () => "Launch",
};

function sized(phases: Phase[], method: Method, capacity: number): Sized[] {
  const out: Sized[] = [];
  let builds = 0;
  for (const p of phases) {
    const weeks = weeksFor(p.tasks, capacity);
    const buildIndex = p.kind === "build" ? builds++ : 0;
    switch (method.style) {
      case "scrum":
        out.push({
          ...p,
          weeks: roundUp(weeks, 2),
          milestone: (_, end) => `Sprint ${Math.ceil(end / 2)} review`,
        });
        break;
      case "kanban":
        out.push({
          ...p,
          goal: `${p.goal} (continuous flow, WIP-limited)`,
          weeks,
          milestone: () => `Flow review: ${p.name}`,
        });
        break;
      case "waterfall": {
        const name = WATERFALL[p.kind](buildIndex);
        out.push({
          ...p,
          name,
          criteria: `Gate: ${p.criteria}`,
          weeks,
          milestone: () => `${name} sign-off`,
        });
        break;
      }
      case "shape_up":
        if (p.kind === "discovery")
          out.push({
            ...p,
            name: "Shaping",
            weeks,
            milestone: () => "Betting table: pitch approved",
          });
        else if (p.kind === "build") {
          const n = buildIndex + 1;
          const label = p.name.replace(/^Build /, "");
          out.push({
            ...p,
            name: `Cycle ${n}: ${label}`,
            weeks: roundUp(weeks, 6),
            milestone: () => `Cycle ${n} demo`,
          });
          const engineering = sumDays(p.tasks.filter((t) => t.role === "engineering"));
          out.push({
            kind: "harden",
            name: `Cooldown ${n}`,
            goal: `Fix what cycle ${n} left and shape the next bet`,
            tasks: [
              {
                title: `Fix issues found in cycle ${n}`,
                estimateDays: Math.max(1, Math.ceil(engineering * 0.2)),
                role: "engineering",
              },
            ],
            criteria: `Cycle ${n} issues triaged and fixed`,
            weeks: 2,
            milestone: () => `Cooldown ${n} done`,
          });
        } else if (p.kind === "harden") {
          // Hardening happens in the last cooldown.
          const cooldown = out.at(-1)!;
          cooldown.tasks = [...cooldown.tasks, ...p.tasks.filter((t) => !/^Fix issues found in beta/.test(t.title))];
          cooldown.goal = `${cooldown.goal}; ${p.goal}`;
          cooldown.criteria = p.criteria;
        } else out.push({ ...p, weeks, milestone: () => "Launch" });
        break;
      default:
        out.push({
          ...p,
          weeks,
          milestone: () => ITERATIVE[p.kind](buildIndex),
        });
    }
  }
  return out;
}

/** Shaped, contiguous phases: the first starts in week 1, each next one where the previous ends. */
export function shape(phases: Phase[], method: Method, capacity: number): Roadmap["phases"] {
  let start = 1;
  return sized(phases, method, capacity).map((p) => {
    const end = start + p.weeks - 1;
    const phase = {
      name:
        method.style === "scrum"
          ? `${p.name} (${p.weeks > 2 ? `Sprints ${Math.ceil(start / 2)}–${Math.ceil(end / 2)}` : `Sprint ${Math.ceil(start / 2)}`})`
          : p.name,
      goal: p.goal,
      startWeek: start,
      durationWeeks: p.weeks,
      milestones: [
        {
          name: p.milestone(start, end),
          week: end,
          successCriteria: p.criteria,
        },
      ],
      tasks: p.tasks,
    };
    start = end + 1;
    return phase;
  });
}
