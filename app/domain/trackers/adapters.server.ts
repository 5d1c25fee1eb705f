import type { TrackerAdapter, TrackerService } from "./adapter";
import { githubAdapter } from "./github.server";
import { linearAdapter } from "./linear.server";

/**
 * The adapters this server has. A service without one (Jira until its
 * adapter lands) cannot be connected; add an adapter here and it
 * appears in the settings page and the API.
 */
export const TRACKER_ADAPTERS: Partial<Record<TrackerService, TrackerAdapter>> = {
  github: githubAdapter,
  linear: linearAdapter,
};

export const availableServices = () => (Object.keys(TRACKER_ADAPTERS) as TrackerService[]).sort();
