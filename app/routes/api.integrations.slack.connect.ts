import { appUrl } from "~/config.server";
import { startSlackConnect } from "~/domain/slack/connection.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/slack";

const route = apiRoute(endpoint(c.slackConnect, ({ actor }) => startSlackConnect(actor, appUrl())));
export const loader = route.loader;
export const action = route.action;
