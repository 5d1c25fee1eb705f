import { reviewSubmission } from "~/domain/templates/submissions.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/marketplace";

const route = apiRoute(
  endpoint(c.reviewSubmission, async ({ actor, params, body }) => ({
    submission: await reviewSubmission(actor, params.submissionId, body),
  })),
);
export const loader = route.loader;
export const action = route.action;
