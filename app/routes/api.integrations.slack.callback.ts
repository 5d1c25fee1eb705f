import { redirect } from "@remix-run/node";
import { appUrl } from "~/config.server";
import { completeSlackConnect } from "~/domain/slack/connection.server";
import { sessionKey } from "~/domain/sessions/sessions.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/slack";
import { redirectWithNotice } from "~/http/ui/flash.server";
import { readSessionId } from "~/http/session.server";

/** Slack's OAuth redirect target: always a redirect to Settings → Slack, with a notice or an error reason. */
const route = apiRoute(
  endpoint(c.slackCallback, async ({ query, request }) => {
    const cookie = await readSessionId(request);
    const outcome = await completeSlackConnect(query, appUrl(), cookie ? sessionKey(cookie) : null);
    if (!outcome.ok) return redirect(`/settings/slack?error=${outcome.reason}`);
    return redirectWithNotice("/settings/slack", `Slack connected: ${outcome.teamName}. Now choose where messages go.`);
  }),
);
export const loader = route.loader;
export const action = route.action;
