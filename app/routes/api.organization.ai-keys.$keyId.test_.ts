// POST /api/organization/ai-keys/{keyId}/test. The trailing "_" keeps the file name clear of the
// `**/*.test.*` ignore pattern for route files; Remix drops it from the URL.
import { testAiConnection } from "~/domain/ai-keys/test-connection.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/ai-keys";

const route = apiRoute(endpoint(c.testOrgKey, ({ actor, params }) => testAiConnection(actor, { kind: "organization", keyId: params.keyId })));
export const loader = route.loader;
export const action = route.action;
