import { getProfile, updateProfile } from "~/domain/users/profile.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/user";

const route = apiRoute(
  endpoint(c.getProfile, ({ actor }) => getProfile(actor)),
  endpoint(c.updateProfile, ({ actor, body }) => updateProfile(actor, body)),
);
export const loader = route.loader;
export const action = route.action;
