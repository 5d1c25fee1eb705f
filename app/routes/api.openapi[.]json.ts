import { apiRoute, endpoint } from "~/http/api/api.server";
import { openapi } from "~/http/api/contracts/system";
import { openApiDocument } from "~/http/api/openapi.server";

const route = apiRoute(endpoint(openapi, () => openApiDocument()));
export const loader = route.loader;
export const action = route.action;
