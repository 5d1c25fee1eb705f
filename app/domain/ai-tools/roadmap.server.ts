import { offlineDrafter } from "~/ai/builtin/offline.server";
import { roadmapPrompt } from "~/ai/prompts/roadmap";
import { asAppError, prepareAi } from "~/ai/run.server";
import { roadmapSchema, type Roadmap } from "~/ai/schemas";
import { db } from "~/db.server";
import type { Actor } from "../actor";
import type { RoadmapInput } from "./ai-tools.schema";
import { saveOutput, toolScope } from "./outputs.server";

/** A delivery roadmap as Markdown, for saving with the structured data and for reading without JavaScript. */
export function roadmapMarkdown(r: Roadmap) {
  const lines = [`# ${r.title}`, "", r.summary, "", `${r.totalWeeks} weeks · ${r.methodology} · ${r.teamSize} team`, ""];
  for (const p of r.phases) {
    lines.push(`## ${p.name} (weeks ${p.startWeek}–${p.startWeek + p.durationWeeks - 1})`, "", p.goal, "");
    for (const m of p.milestones) lines.push(`- Milestone, week ${m.week}: **${m.name}** — ${m.successCriteria}`);
    for (const t of p.tasks) lines.push(`- [ ] ${t.title} (${t.estimateDays} d, ${t.role})`);
    lines.push("");
  }
  if (r.risks.length) lines.push("## Risks", "", ...r.risks.map((x) => `- ${x}`), "");
  return lines.join("\n");
}

/** A phased roadmap with milestones, tasks and week estimates (non-streaming). */
export async function buildRoadmap(actor: Actor, input: RoadmapInput, signal?: AbortSignal) {
  const { project, ctx } = await toolScope(actor, input.projectId);
  const ai = await prepareAi({ actor, task: "roadmap", projectId: project?.id, provider: input.provider });
  const request = { prdContent: input.prdContent, teamSize: input.teamSize, methodology: input.methodology };
  try {
    const answer = await ai.completeJson(
      {
        name: "roadmap",
        description: "A phased delivery roadmap with milestones, tasks and timeline estimates",
        schema: roadmapSchema,
        prompt: () => roadmapPrompt(request, ctx),
        builtin: () => offlineDrafter.roadmap(request, ctx),
      },
      signal,
    );
    const output = project
      ? await db.transaction().execute((trx) =>
          saveOutput(trx, {
            project,
            actor,
            kind: "roadmap",
            variant: input.methodology,
            title: `Roadmap (${input.methodology}, ${input.teamSize} team)`,
            content: roadmapMarkdown(answer.value),
            data: answer.value,
            model: answer.model,
            truncated: false,
          }),
        )
      : null;
    return { roadmap: answer.value, outputId: output?.id ?? null, model: answer.model, provider: answer.provider, keySource: answer.keySource };
  } catch (error) {
    throw asAppError(error);
  }
}
