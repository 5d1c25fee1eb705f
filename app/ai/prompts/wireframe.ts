import type { TaskContext } from "../context.server";
import type { DiagramType } from "../schemas";
import type { ModelRequest } from "../types";
import { clip, system } from "./shared";

const DIAGRAM: Record<DiagramType, string> = {
  user_flow: "a user flow as `flowchart TD` with decision nodes",
  system_architecture: "a system architecture as `flowchart LR` with subgraphs for clients, services and data stores",
  screen_layout: "a screen layout wireframe as `flowchart TB` with one subgraph per screen region and nodes for UI elements",
  data_flow: "a data flow as `flowchart LR` with processes and data stores",
  sequence: "a `sequenceDiagram` of the main interaction",
  journey_map: "a user journey map as a Mermaid `journey` diagram with sections and tasks scored 1 to 5",
};

/** A Mermaid diagram (POST /api/ai/wireframe): the answer is Mermaid source only. */
export function wireframePrompt(input: { content: string; diagramType: DiagramType; section?: string }, ctx: TaskContext): Omit<ModelRequest, "signal"> {
  return {
    system: system(
      "You turn product requirements into Mermaid diagrams.",
      ctx,
      [
        `Draw ${DIAGRAM[input.diagramType]}.`,
        ...(input.section ? [`Draw only what the section “${input.section}” describes.`] : []),
        "Answer with Mermaid source only: no code fence, no explanation. It must parse with Mermaid 11.",
        "Use short ids (n1, n2, …) and put labels in double quotes; no double quotes inside labels. At most 20 nodes.",
      ],
      { template: false },
    ),
    messages: [{ role: "user", content: clip(input.content, 30_000) }],
    maxTokens: 2000,
  };
}
