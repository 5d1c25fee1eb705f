import { EVENT_NAMES } from "../events/catalogue";
import { EVENT_GROUPS } from "./webhooks.schema";

/**
 * Webhook forms without JavaScript: each event checkbox is its own field
 * (`events.project.created`, `events.project.*`, `events.*`), because a page
 * form posts plain string values. These turn them into schema input and back.
 */

export const EVENT_FIELD_PREFIX = "events.";

const GROUP_LABELS: Record<string, string> = {
  project: "Projects",
  prd: "PRDs",
  comment: "Comments",
  share: "Sharing",
  member: "Members",
  invitation: "Invitations",
  export: "Exports",
  template: "Templates",
  review: "Stakeholder reviews",
  webhook: "Webhooks",
};

/** The catalogue grouped by area, for the checkboxes. */
export const EVENT_CHOICES = EVENT_GROUPS.map((group) => ({
  group,
  label: GROUP_LABELS[group] ?? group,
  events: EVENT_NAMES.filter((n) => n.startsWith(`${group}.`)),
}));

/** The subscriptions checked in a posted form. */
export function eventsFromForm(values: Record<string, string>) {
  return Object.keys(values)
    .filter((k) => k.startsWith(EVENT_FIELD_PREFIX) && values[k])
    .map((k) => k.slice(EVENT_FIELD_PREFIX.length));
}

/** Create/update input from a posted webhook form (empty optional fields left out). */
export function webhookFormInput(values: Record<string, string>) {
  const input: Record<string, unknown> = {
    name: values.name ?? "",
    url: values.url ?? "",
    events: eventsFromForm(values),
  };
  if (values.secret) input.secret = values.secret;
  if (values.signatureHeaderName) input.signatureHeaderName = values.signatureHeaderName;
  return input;
}
