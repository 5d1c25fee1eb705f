/** The outgoing event catalogue (docs/webhooks.md). */
export const EVENT_NAMES = [
  "project.created",
  "project.updated",
  "project.deleted",
  "project.status_changed",
  "prd.generated",
  "prd.updated",
  "prd.version_created",
  "comment.created",
  "share.enabled",
  "share.revoked",
  "member.added",
  "member.removed",
  "member.role_changed",
  "invitation.created",
  "invitation.accepted",
  "export.completed",
  "export.failed",
  "template.submitted",
  "template.reviewed",
  "review.resolved",
  "webhook.test",
] as const;

export type EventName = (typeof EVENT_NAMES)[number];

/** True when a subscription pattern (`*`, `project.*` or an exact name) covers `name`. */
export function eventMatches(pattern: string, name: string) {
  if (pattern === "*") return true;
  if (pattern.endsWith(".*")) return name.startsWith(pattern.slice(0, -1));
  return pattern === name;
}
