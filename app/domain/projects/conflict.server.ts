import type { Project } from "#db/schema";
import { AppError } from "../errors";
import { presentProject } from "./present.server";

/** 409 CONFLICT carrying the current project when the caller edited an older revision. */
export async function assertRevision(project: Project, expected: number, _viewer?: unknown) {
  if (project.revision === expected) return;
  throw new AppError(
    "CONFLICT",
    409,
    `This project was changed by someone else since you loaded it (now at revision ${project.revision}, you edited ${expected}). Reload, compare and apply your change again.`,
    { extra: { current: presentProject(project) } },
  );
}
