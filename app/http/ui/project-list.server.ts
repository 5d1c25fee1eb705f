import type { z } from "zod/v4";
import type { Actor } from "~/domain/actor";
import { AppError } from "~/domain/errors";
import { listProjects } from "~/domain/projects/projects.server";
import { type ListProjectsQuery, listProjectsSchema } from "~/domain/projects/projects.schema";
import { queryToObject } from "../api/body.server";

const PAGE = 25;

/**
 * The project list of a page: the URL's filters, parsed with the list schema.
 * A hand-edited URL with a bad value falls back to the defaults instead of failing the page.
 */
export async function uiProjectList(actor: Actor, url: string, filterKeys: (keyof ListProjectsQuery)[]) {
  const raw = queryToObject(url);
  const given = Object.fromEntries(Object.entries(raw).filter(([, v]) => v !== ""));
  const fallback = listProjectsSchema.parse({ limit: PAGE });
  const parsed = listProjectsSchema.safeParse({ limit: PAGE, ...given });
  const query: z.infer<typeof listProjectsSchema> = parsed.success ? parsed.data : fallback;
  const result = await listProjects(actor, query).catch((error) => {
    if (error instanceof AppError) return listProjects(actor, fallback);
    throw error;
  });
  const filtered = filterKeys.some((k) => given[k]);
  return { ...result, filtered, invalid: !parsed.success };
}
