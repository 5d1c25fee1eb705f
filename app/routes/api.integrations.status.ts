import { integrationsStatus } from "~/domain/uploads/integrations.server";
import { apiRoute, endpoint } from "~/http/api.server";
import * as c from "~/http/contracts/uploads";

const route = apiRoute(endpoint(c.integrationsStatus, ({ actor }) => integrationsStatus(actor)));
export const loader = route.loader;
export const action = route.action;
