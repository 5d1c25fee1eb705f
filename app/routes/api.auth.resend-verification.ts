import { resendVerification } from "~/domain/auth/auth.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/auth";

const route = apiRoute(
  endpoint(c.resendVerification, async ({ body, meta }) => {
    await resendVerification(body, meta);
    return { success: true, message: "If this account still needs verifying, a new link is on its way." };
  }),
);
export const loader = route.loader;
export const action = route.action;
