import { resolveReview } from "~/domain/collaboration/public-review.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/collaboration";

const route = apiRoute(
  endpoint(c.resolveReview, async ({ body, request, meta }) => {
    const { token, ...decision } = body;
    const review = await resolveReview({ token, password: request.headers.get("x-share-password") }, decision, { ip: meta.ip });
    return { review };
  }),
);
export const loader = route.loader;
export const action = route.action;
