import { currentAccount } from "~/domain/auth/auth.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/auth";

const route = apiRoute(endpoint(c.me, ({ actor }) => currentAccount(actor)));
export const loader = route.loader;
export const action = route.action;
