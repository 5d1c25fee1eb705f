import type { TrackerAdapter, TrackerService } from "./adapter";
import { githubAdapter } from "./github.server";
import { jiraAdapter } from "./jira.server";
import { linearAdapter } from "./linear.server";

/**
 * The adapters this server has. A service without one cannot be
 * connected; add an adapter here and it appears in the settings page and
 * the API.
 */
export const TRACKER_ADAPTERS: Partial<Record<TrackerService, TrackerAdapter>> = {
  github: githubAdapter,
  linear: linearAdapter,
  jira: jiraAdapter,
};

export const availableServices = () => (Object.keys(TRACKER_ADAPTERS) as TrackerService[]).sort();
