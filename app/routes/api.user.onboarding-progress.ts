import { onboardingProgress } from "~/domain/users/progress.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/user";

const route = apiRoute(endpoint(c.onboardingProgress, ({ actor }) => onboardingProgress(actor)));
export const loader = route.loader;
export const action = route.action;
