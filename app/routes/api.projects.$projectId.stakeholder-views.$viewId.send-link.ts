import { sendReviewLink } from "~/domain/collaboration/stakeholders.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/collaboration";

const route = apiRoute(
  endpoint(c.sendStakeholderReviewLink, async ({ actor, params }) => ({
    view: await sendReviewLink(actor, params.projectId, params.viewId),
  })),
);
export const loader = route.loader;
export const action = route.action;
