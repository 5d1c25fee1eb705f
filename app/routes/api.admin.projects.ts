import { requireRole, ADMIN_ROLES } from "~/domain/actor";
import { listProjects } from "~/domain/projects/projects.server";
import { apiRoute, endpoint } from "~/http/api.server";
import * as c from "~/http/contracts/administration";

const route = apiRoute(
  endpoint(c.adminProjects, ({ actor, query }) => {
    requireRole(actor, ADMIN_ROLES, "list all projects");
    const { template, assignee, dateFrom, dateTo, ...rest } = query;
    return listProjects(actor, {
      ...rest,
      templateId: rest.templateId ?? template,
      assignedToId: rest.assignedToId ?? assignee,
      createdFrom: rest.createdFrom ?? dateFrom,
      createdTo: rest.createdTo ?? dateTo,
    });
  }),
);
export const loader = route.loader;
export const action = route.action;
