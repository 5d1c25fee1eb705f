import type { TrackerAdapter, TrackerService } from "./adapter";
import { githubAdapter } from "./github.server";

/**
 * The adapters this server has. A service without one (Linear and Jira until
 * their adapters land) cannot be connected; add an adapter here and it
 * appears in the settings page and the API.
 */
export const TRACKER_ADAPTERS: Partial<Record<TrackerService, TrackerAdapter>> = {
  github: githubAdapter,
};

export const availableServices = () => (Object.keys(TRACKER_ADAPTERS) as TrackerService[]).sort();
