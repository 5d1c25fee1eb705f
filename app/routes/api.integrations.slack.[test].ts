import { sendSlackTest } from "~/domain/slack/deliver.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/slack";

const route = apiRoute(endpoint(c.slackTest, ({ actor, body }) => sendSlackTest(actor, { channelId: body.channelId ?? null })));
export const loader = route.loader;
export const action = route.action;
