import { saveSlackRouting, slackStatus } from "~/domain/slack/routing.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/slack";

const route = apiRoute(
  endpoint(c.slackStatus, ({ actor }) => slackStatus(actor)),
  endpoint(c.slackRouting, ({ actor, body }) => saveSlackRouting(actor, body)),
);
export const loader = route.loader;
export const action = route.action;
