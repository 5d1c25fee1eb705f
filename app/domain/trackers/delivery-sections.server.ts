import type { TrackerIssuesTable, TrackerIssueState } from "#db/schema";
import { db } from "~/db.server";
import { sectionHeadings } from "~/utils/markdown.server";
import { AppError } from "../errors";
import { getPrd } from "../prd/prd.server";
import { projectAccess, type Viewer } from "../projects/access.server";
import { parseStories } from "./stories";

/**
 * Delivery on the PRD (docs/trackers.md, "On the PRD"): the issues sent to a
 * tracker grouped by the PRD section they came from, and the state of each
 * story of a saved user-stories output. Reads only; anyone who can read the
 * project sees them.
 */

export type SectionIssue = { title: string; state: TrackerIssueState; url: string; externalKey: string };
export type StateCounts = { total: number; open: number; inProgress: number; done: number };
export type SectionDelivery = { id: string; title: string; counts: StateCounts; issues: SectionIssue[] };

const key = (s: string) => s.replace(/[*_`]/g, "").replace(/\s+/g, " ").trim().toLowerCase();

function countsOf(issues: { state: TrackerIssueState }[]): StateCounts {
  const n = (s: TrackerIssueState) => issues.filter((i) => i.state === s).length;
  return { total: issues.length, open: n("open"), inProgress: n("in_progress"), done: n("done") };
}

const present = (r: TrackerIssuesTable): SectionIssue => ({ title: r.title, state: r.state, url: r.url, externalKey: r.externalKey });

async function linkedIssues(projectId: string) {
  return db.selectFrom("trackerIssues").selectAll().where("projectId", "=", projectId).orderBy("createdAt").orderBy("externalNumber").orderBy("id").execute();
}

/**
 * For each PRD heading (levels 1–3) that linked issues name as their section
 * (case-insensitively), its counts and issues, in the PRD's order. Issues whose
 * section is not a heading of the PRD (or have none) are under `other`.
 */
export async function deliveryBySection(viewer: Viewer, projectId: string) {
  const { project } = await projectAccess(viewer, projectId);
  const rows = await linkedIssues(project.id);
  if (!rows.length) return { sections: [] as SectionDelivery[], other: null };
  const content = await getPrd(viewer, project.id).then(
    (p) => p.content,
    (e) => {
      if (e instanceof AppError && e.status === 404) return "";
      throw e;
    },
  );
  const bySection = new Map<string, TrackerIssuesTable[]>();
  for (const r of rows) {
    const k = key(r.section ?? "");
    bySection.set(k, [...(bySection.get(k) ?? []), r]);
  }
  const sections: SectionDelivery[] = [];
  const used = new Set<string>();
  for (const h of sectionHeadings(content)) {
    const k = key(h.title);
    const issues = bySection.get(k);
    // A heading repeated in the PRD gets its issues once, at its first occurrence.
    if (!k || !issues || used.has(k)) continue;
    used.add(k);
    sections.push({ id: h.id, title: h.title.trim(), counts: countsOf(issues), issues: issues.map(present) });
  }
  const rest = rows.filter((r) => !used.has(key(r.section ?? "")));
  return { sections, other: rest.length ? { counts: countsOf(rest), issues: rest.map(present) } : null };
}
export type DeliveryBySection = Awaited<ReturnType<typeof deliveryBySection>>;

export type SentStory = { title: string; issues: (SectionIssue & { service: string })[] };

/**
 * The stories of saved user-stories outputs that were sent to a tracker,
 * matched by the key the sync uses (epic + title), by output id. Stories not
 * sent are left out; an output with none sent is absent.
 */
export async function sentStoriesOf(viewer: Viewer, projectId: string, outputs: { id: string; kind?: string; content: string }[]) {
  const { project } = await projectAccess(viewer, projectId);
  const out: Record<string, SentStory[]> = {};
  const storyOutputs = outputs.filter((o) => o.kind === "user_stories");
  if (!storyOutputs.length) return out;
  const rows = await linkedIssues(project.id);
  if (!rows.length) return out;
  const byKey = new Map<string, TrackerIssuesTable[]>();
  for (const r of rows) byKey.set(r.storyKey, [...(byKey.get(r.storyKey) ?? []), r]);
  for (const o of storyOutputs) {
    const sent = parseStories(o.content).flatMap((s) => {
      const issues = byKey.get(s.key);
      return issues ? [{ title: s.title, issues: issues.map((r) => ({ ...present(r), service: r.service })) }] : [];
    });
    if (sent.length) out[o.id] = sent;
  }
  return out;
}
