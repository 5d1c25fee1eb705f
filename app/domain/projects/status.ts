import { AppError } from "../errors";
import { PROJECT_STATUSES, type ProjectStatus } from "./projects.schema";

/** Normalizes a status ("in progress" → IN_PROGRESS); anything else is 400 INVALID_STATUS. */
export function parseStatus(value: string): ProjectStatus {
  const s = value
    .trim()
    .toUpperCase()
    .replace(/[\s-]+/g, "_") as ProjectStatus;
  if (!PROJECT_STATUSES.includes(s)) {
    const message = `Status must be one of ${PROJECT_STATUSES.join(", ")}`;
    throw new AppError("INVALID_STATUS", 400, message, { details: [{ path: "status", message }] });
  }
  return s;
}
