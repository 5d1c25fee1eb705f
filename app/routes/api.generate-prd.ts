import { generatePrd } from "~/domain/builder/generate.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/builder";

const route = apiRoute(endpoint(c.generatePrd, ({ actor, body, request }) => generatePrd(actor, body, request.signal)));
export const loader = route.loader;
export const action = route.action;
