import { completeOnboarding, getOnboarding } from "~/domain/users/onboarding.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/user";

const route = apiRoute(
  endpoint(c.getOnboarding, ({ actor }) => getOnboarding(actor)),
  endpoint(c.completeOnboarding, ({ actor, body, meta }) => completeOnboarding(actor, body, meta)),
);
export const loader = route.loader;
export const action = route.action;
