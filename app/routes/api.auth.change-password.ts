import { changePassword } from "~/domain/auth/auth.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/auth";

const route = apiRoute(
  endpoint(c.changePassword, async ({ actor, body }) => {
    await changePassword(actor, body);
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
