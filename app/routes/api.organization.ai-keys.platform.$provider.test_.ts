// POST /api/organization/ai-keys/platform/{provider}/test: the server's own provider (environment
// key or base URL). The trailing "_" keeps the file name clear of the `**/*.test.*` ignore pattern.
import { testAiConnection } from "~/domain/ai-keys/test-connection.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/ai-keys";

const route = apiRoute(endpoint(c.testPlatformProvider, ({ actor, params }) => testAiConnection(actor, { kind: "platform", provider: params.provider })));
export const loader = route.loader;
export const action = route.action;
