import { createTeam, listTeams } from "~/domain/teams/teams.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/organization";

const route = apiRoute(
  endpoint(c.listTeams, async ({ actor, query }) => ({ teams: await listTeams(actor, query.includeArchived ?? false) })),
  endpoint(c.createTeam, async ({ actor, body }) => ({ team: await createTeam(actor, body) })),
);
export const loader = route.loader;
export const action = route.action;
