import { createMemory, deleteMemory, listMemories } from "~/domain/memory/memory.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/memory";

const route = apiRoute(
  endpoint(c.listMemories, async ({ actor, query }) => ({ memories: await listMemories(actor, query) })),
  endpoint(c.createMemory, async ({ actor, body }) => ({ memory: await createMemory(actor, body) })),
  endpoint(c.deleteMemory, async ({ actor, query }) => {
    await deleteMemory(actor, query.id);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
