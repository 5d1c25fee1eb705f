import { redirect } from "@remix-run/node";
import { appUrl } from "~/config.server";
import { completeConnect } from "~/domain/integrations/oauth.server";
import { PROVIDER_INFO } from "~/domain/integrations/providers";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/integrations";
import { redirectWithNotice } from "~/http/ui/flash.server";
import { readSessionId } from "~/http/session.server";
import { sessionKey } from "~/domain/sessions/sessions.server";

/** The OAuth redirect target: always a redirect to the settings page, with a notice or an error reason. */
const route = apiRoute(
  endpoint(c.integrationCallback, async ({ params, query, request }) => {
    const cookie = await readSessionId(request);
    const outcome = await completeConnect(params.provider, query, appUrl(), cookie ? sessionKey(cookie) : null);
    if (!outcome.ok) return redirect(`/settings/integrations?error=${outcome.reason}&provider=${outcome.provider}`);
    const message = `${PROVIDER_INFO[outcome.provider].service} connected: ${outcome.workspaceName}.`;
    return redirectWithNotice("/settings/integrations", message);
  }),
);
export const loader = route.loader;
export const action = route.action;
