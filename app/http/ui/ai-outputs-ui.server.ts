import type { OutputKind } from "~/domain/ai-tools/ai-tools.schema";
import { deleteOutput, listOutputs } from "~/domain/ai-tools/outputs.server";
import type { Actor } from "~/domain/actor";
import { renderMarkdownForPage } from "~/utils/markdown.server";

/** Saved outputs of some kinds, with their Markdown rendered for the page. */
export async function outputsFor(actor: Actor, projectId: string, kinds: OutputKind[]) {
  const lists = await Promise.all(kinds.map((kind) => listOutputs(actor, projectId, { kind, limit: 20 })));
  return lists
    .flat()
    .sort((a, b) => b.createdAt.localeCompare(a.createdAt))
    .map((o) => ({ ...o, html: o.kind === "wireframe" ? "" : renderMarkdownForPage(o.content) }));
}

/** The shared "delete-output" form intent of the AI tool pages. */
export async function deleteOutputIntent(actor: Actor, projectId: string, values: Record<string, string>) {
  await deleteOutput(actor, projectId, values.outputId ?? "");
}
