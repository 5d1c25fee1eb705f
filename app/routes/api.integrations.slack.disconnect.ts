import { disconnectSlack } from "~/domain/slack/connection.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/slack";

const route = apiRoute(endpoint(c.slackDisconnect, ({ actor }) => disconnectSlack(actor)));
export const loader = route.loader;
export const action = route.action;
