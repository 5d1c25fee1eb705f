import { createProject, listProjects } from "~/domain/projects/projects.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/projects";
import { projectEtag } from "~/http/api/etag.server";

const route = apiRoute(
  endpoint(c.listProjects, ({ actor, query }) => listProjects(actor, query)),
  endpoint(c.createProject, async ({ actor, body, headers }) => {
    const project = await createProject(actor, body);
    headers.set("ETag", projectEtag(project.revision));
    headers.set("Location", `/api/projects/${project.id}`);
    return project;
  }),
);
export const loader = route.loader;
export const action = route.action;
