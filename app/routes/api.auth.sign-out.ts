import { signOut } from "~/domain/auth/auth.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/auth";
import { clearSessionCookie } from "~/http/session.server";

const route = apiRoute(
  endpoint(c.signOut, async ({ actor, headers }) => {
    if (actor) await signOut(actor);
    headers.append("Set-Cookie", await clearSessionCookie());
    return { success: true };
  }),
);
export const loader = route.loader;
export const action = route.action;
