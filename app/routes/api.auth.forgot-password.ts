import { requestPasswordReset } from "~/domain/auth/auth.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/auth";

const route = apiRoute(
  endpoint(c.forgotPassword, async ({ body, meta }) => {
    await requestPasswordReset(body, meta);
    return { success: true, message: "If an account exists for this e-mail, a reset link is on its way." };
  }),
);
export const loader = route.loader;
export const action = route.action;
