import { apiRoute, endpoint } from "~/http/api.server";
import { openapi } from "~/http/contracts/system";
import { openApiDocument } from "~/http/openapi.server";

const route = apiRoute(endpoint(openapi, () => openApiDocument()));
export const loader = route.loader;
export const action = route.action;
