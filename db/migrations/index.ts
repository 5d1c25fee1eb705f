import type { Migration } from "kysely";
import * as m0001 from "./0001_foundation";
import * as m0002 from "./0002_projects";
import * as m0003 from "./0003_templates";
import * as m0004 from "./0004_ai";
import * as m0005 from "./0005_project_names";

/** Explicit registry: works the same under tsx, vitest and the bundled build. */
export const migrations: Record<string, Migration> = {
  "0001_foundation": m0001,
  "0002_projects": m0002,
  "0003_templates": m0003,
  "0004_ai": m0004,
  "0005_project_names": m0005,
};
