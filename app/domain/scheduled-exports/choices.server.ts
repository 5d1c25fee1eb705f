import { type Actor, canWrite } from "../actor";
import { PROJECT_STATUSES, STATUS_LABELS } from "../projects/projects.schema";
import { canonicalTimeZone } from "./schedule";
import { schedulableProjects } from "./schedules.server";

let zones: string[] | undefined;

/** The schedules form's choices: projects the caller may schedule (and whether "All projects"), project statuses, IANA timezones. */
export async function scheduleFormChoices(actor: Actor) {
  zones ??= ["UTC", ...Intl.supportedValuesOf("timeZone").filter((z) => z !== "UTC")];
  return {
    projects: await schedulableProjects(actor),
    allowDigest: canWrite(actor),
    statuses: PROJECT_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] })),
    timezones: zones,
  };
}

/** The caller's own timezone when it is a valid one, else UTC: the create form's default. */
export function defaultTimezone(actor: Actor) {
  return canonicalTimeZone(actor.user.timezone ?? "") ?? "UTC";
}
