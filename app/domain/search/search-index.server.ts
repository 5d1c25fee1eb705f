import type { Executor } from "~/db.server";
import { queueEmbedding } from "./embeddings.server";

/**
 * Keeps the FTS5 row of a project (rowid = projects.seq) in step with its
 * name, description and PRD, and queues a refresh of its embedding for
 * semantic search. Call it in the transaction that changed them.
 */
export async function indexProject(trx: Executor, projectId: string) {
  const row = await trx
    .selectFrom("projects as p")
    .leftJoin("prds as d", "d.projectId", "p.id")
    .select(["p.seq", "p.orgId", "p.name", "p.description", "d.content"])
    .where("p.id", "=", projectId)
    .executeTakeFirst();
  if (!row) return;
  await trx.deleteFrom("projectSearch").where("rowid", "=", row.seq).execute();
  await trx
    .insertInto("projectSearch")
    .values({ rowid: row.seq, name: row.name, description: row.description, content: row.content ?? "" })
    .execute();
  await queueEmbedding(trx, { id: projectId, orgId: row.orgId });
}
