import { reviewsByToken } from "~/domain/collaboration/public-review.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/collaboration";

const route = apiRoute(
  endpoint(c.reviewsByToken, ({ query, request, meta }) =>
    reviewsByToken({ token: query.token, password: request.headers.get("x-share-password") }, { ip: meta.ip }),
  ),
);
export const loader = route.loader;
export const action = route.action;
