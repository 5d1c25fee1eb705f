import { deleteTeam, updateTeam } from "~/domain/teams/teams.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/organization";

const route = apiRoute(
  endpoint(c.updateTeam, async ({ actor, params, body }) => ({ team: await updateTeam(actor, params.teamId, body) })),
  endpoint(c.deleteTeam, async ({ actor, params }) => {
    await deleteTeam(actor, params.teamId);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
