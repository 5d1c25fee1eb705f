import { signIn } from "~/domain/auth/auth.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/auth";
import { sessionCookie } from "~/http/session.server";

const route = apiRoute(
  endpoint(c.signIn, async ({ body, meta, headers }) => {
    const { sessionId, ...account } = await signIn(body, meta);
    headers.append("Set-Cookie", await sessionCookie(sessionId));
    return account;
  }),
);
export const loader = route.loader;
export const action = route.action;
