import { mentionableUsers } from "~/domain/collaboration/mentionable.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/collaboration";

// A static segment: matched before `comments/{commentId}`.
const route = apiRoute(endpoint(c.listMentionable, async ({ actor, params }) => ({ users: await mentionableUsers(actor, params.projectId) })));
export const loader = route.loader;
export const action = route.action;
