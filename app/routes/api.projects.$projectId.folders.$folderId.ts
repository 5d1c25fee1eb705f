import { deleteFolder, updateFolder } from "~/domain/files/folders.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/files";

const route = apiRoute(
  endpoint(c.updateFolder, async ({ actor, params, body }) => ({
    folder: await updateFolder(actor, params.projectId, params.folderId, body),
  })),
  endpoint(c.deleteFolder, async ({ actor, params }) => {
    const { movedFiles } = await deleteFolder(actor, params.projectId, params.folderId);
    return { success: true, movedFiles };
  }),
);
export const loader = route.loader;
export const action = route.action;
