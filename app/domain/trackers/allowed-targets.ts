import { AppError } from "../errors";
import { TRACKER_INFO, type TrackerService } from "./adapter";

/**
 * Where a tracker connection may send stories (docs/trackers.md, "Where
 * stories may be sent"): the organization's token often reaches many
 * repositories, so an owner or admin chooses the ones editors may send to.
 * Stored on the connection as a JSON array of `{id, name}`; null while none
 * was chosen, when any target the token reaches is allowed (the settings
 * page says so). The check is in `authorize` of sync.server.ts, which every
 * preview and send goes through (the pages, the API and MCP).
 */

export interface AllowedTarget {
  id: string;
  name: string;
}

/** The stored list; null (not chosen) for a missing or unreadable value. */
export function parseAllowedTargets(raw: string | null): AllowedTarget[] | null {
  if (raw === null) return null;
  try {
    const list = JSON.parse(raw) as unknown;
    if (!Array.isArray(list)) return null;
    return list
      .filter((t): t is { id: string; name?: unknown } => typeof t === "object" && t !== null && typeof (t as { id?: unknown }).id === "string")
      .map((t) => ({ id: t.id, name: typeof t.name === "string" && t.name ? t.name : t.id }));
  } catch {
    return null;
  }
}

/** Targets are compared without case: GitHub's owner/name and Jira's keys are case-insensitive, so another spelling is the same place. */
export const sameTarget = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

export const targetAllowed = (list: AllowedTarget[] | null, target: string) => list === null || list.some((t) => sameTarget(t.id, target));

/** 403 FORBIDDEN unless `target` is on the connection's list (or it has none). */
export function requireAllowedTarget(connection: { service: TrackerService; allowedTargets: string | null }, target: string) {
  const list = parseAllowedTargets(connection.allowedTargets);
  if (targetAllowed(list, target)) return;
  const { name, target: kind } = TRACKER_INFO[connection.service];
  const names = list!.map((t) => t.name);
  const shown = names.length > 5 ? `${names.slice(0, 5).join(", ")} and ${names.length - 5} more` : names.join(", ");
  const message = names.length
    ? `Stories cannot be sent to ${target}: this ${name} connection may send only to ${shown}. An owner or admin can allow another ${kind} in Settings → Issue trackers.`
    : `Stories cannot be sent to ${target}: this ${name} connection may send to no ${kind} yet. An owner or admin can allow one in Settings → Issue trackers.`;
  throw new AppError("FORBIDDEN", 403, message, { details: [{ path: "target", message }] });
}
