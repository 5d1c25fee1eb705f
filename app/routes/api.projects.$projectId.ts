import { deleteProject, getProject, updateProject } from "~/domain/projects/projects.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/projects";
import { ifMatchRevision, projectEtag } from "~/http/api/etag.server";

const route = apiRoute(
  endpoint(c.getProject, async ({ viewer, params, headers }) => {
    const project = await getProject(viewer, params.projectId);
    headers.set("ETag", projectEtag(project.revision));
    return project;
  }),
  endpoint(c.updateProject, async ({ actor, params, body, request, headers }) => {
    const project = await updateProject(actor, params.projectId, body, ifMatchRevision(request));
    headers.set("ETag", projectEtag(project.revision));
    return project;
  }),
  endpoint(c.deleteProject, async ({ actor, params }) => {
    await deleteProject(actor, params.projectId);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
