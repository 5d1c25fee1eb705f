import { listMarketplaceTemplates } from "~/domain/templates/marketplace.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/marketplace";

const route = apiRoute(endpoint(c.listMarketplace, ({ actor, query }) => listMarketplaceTemplates(actor, query)));
export const loader = route.loader;
export const action = route.action;
