import { deleteAccount } from "~/domain/users/delete-account.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/user";
import { clearSessionCookie } from "~/http/session.server";

const route = apiRoute(
  endpoint(c.deleteAccount, async ({ actor, body, headers }) => {
    const result = await deleteAccount(actor, body);
    headers.append("Set-Cookie", await clearSessionCookie());
    return { success: true, ...result };
  }),
);
export const loader = route.loader;
export const action = route.action;
