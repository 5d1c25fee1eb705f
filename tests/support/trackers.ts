import type { RequestHandler } from "msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll } from "vitest";
import { resetConfigForTests } from "~/config.server";
import { trackerRetry } from "~/domain/trackers/sync.server";
import { db } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";

/** A saved user-stories AI output of the project with this Markdown, as the AI tool keeps one; returns its id. */
export async function savedUserStories(projectId: string, createdById: string, content: string) {
  const id = newId();
  await db
    .insertInto("aiOutputs")
    .values({
      id,
      projectId,
      kind: "user_stories",
      variant: null,
      title: "User stories",
      content,
      data: null,
      model: "builtin",
      truncated: 0,
      createdById,
      createdAt: nowIso(),
    })
    .execute();
  return id;
}

/**
 * A tracker's msw stand-in for one test file: sets the environment that
 * points the app at it, answers only through `handlers` (anything else fails),
 * and records the Retry-After waits instead of sleeping. Registered before the
 * file's own beforeAll, restored after it.
 */
export function useTrackerStandIn(env: Record<string, string>, handlers: RequestHandler[]) {
  const server = setupServer(...handlers);
  const waits: number[] = [];
  const sleep = trackerRetry.sleep;
  beforeAll(() => {
    Object.assign(process.env, env);
    resetConfigForTests();
    trackerRetry.sleep = async (ms) => {
      waits.push(ms);
    };
    server.listen({ onUnhandledRequest: "error" });
  });
  afterAll(() => {
    server.close();
    trackerRetry.sleep = sleep;
    for (const name of Object.keys(env)) delete process.env[name];
    resetConfigForTests();
  });
  return { server, waits };
}
