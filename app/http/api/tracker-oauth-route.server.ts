import { appUrl } from "~/config.server";
import { sessionKey } from "~/domain/sessions/sessions.server";
import { TRACKER_INFO, type TrackerService } from "~/domain/trackers/adapter";
import { completeTrackerOAuth, startTrackerOAuth, trackerCallbackMessage } from "~/domain/trackers/oauth.server";
import { redirectWithNotice } from "../ui/flash.server";
import { readSessionId } from "../session.server";
import { apiRoute, endpoint } from "./api.server";
import { trackerOAuthContracts } from "./contracts/trackers";

/** GET /api/integrations/trackers/{service}/connect: the authorization URL (docs/trackers.md, "Connecting with OAuth"). */
export function trackerOAuthConnectRoute(service: TrackerService) {
  return apiRoute(endpoint(trackerOAuthContracts.connect[service], ({ actor }) => startTrackerOAuth(actor, service, appUrl())));
}

/** The service's OAuth redirect target: always a redirect to Settings → Issue trackers with a one-time notice. */
export function trackerOAuthCallbackRoute(service: TrackerService) {
  return apiRoute(
    endpoint(trackerOAuthContracts.callback[service], async ({ query, request }) => {
      const cookie = await readSessionId(request);
      const outcome = await completeTrackerOAuth(service, query, appUrl(), cookie ? sessionKey(cookie) : null);
      if (!outcome.ok) {
        return redirectWithNotice(`/settings/trackers?error=${outcome.reason}&service=${service}`, trackerCallbackMessage(service, outcome.reason), "error");
      }
      const name = TRACKER_INFO[service].name;
      const next = outcome.renewed ? "Its webhook URL and secret are unchanged." : `Add the webhook below in ${name} so issue states come back.`;
      return redirectWithNotice("/settings/trackers", `Connected ${name} as ${outcome.accountLabel}. ${next}`);
    }),
  );
}
