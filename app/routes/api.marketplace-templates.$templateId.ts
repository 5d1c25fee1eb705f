import { getMarketplaceTemplate } from "~/domain/templates/marketplace.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/marketplace";

const route = apiRoute(endpoint(c.getMarketplaceTemplate, ({ actor, params }) => getMarketplaceTemplate(actor, params.templateId)));
export const loader = route.loader;
export const action = route.action;
