import { verifyEmail } from "~/domain/auth/auth.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/auth";

const route = apiRoute(endpoint(c.verifyEmail, ({ query }) => verifyEmail(query)));
export const loader = route.loader;
export const action = route.action;
