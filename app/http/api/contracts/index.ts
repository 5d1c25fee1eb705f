import type { Contract } from "../contract";
import * as aiKeys from "./ai-keys";
import * as aiTools from "./ai-tools";
import * as apiKeys from "./api-keys";
import * as builder from "./builder";
import * as memory from "./memory";
import * as auth from "./auth";
import * as collaboration from "./collaboration";
import * as files from "./files";
import * as search from "./search";
import * as prd from "./prd";
import * as live from "./live";
import * as projects from "./projects";
import * as system from "./system";
import * as templates from "./templates";
import * as marketplace from "./marketplace";
import * as user from "./user";
import * as notifications from "./notifications";
import * as webhooks from "./webhooks";
import * as incoming from "./incoming";
import * as flagsNps from "./flags-nps";
import * as uploads from "./uploads";
import * as organization from "./organization";
import * as billing from "./billing";
import * as admin from "./admin";
import * as branding from "./branding";
import * as administration from "./administration";
import * as approvals from "./approvals";
import * as exportsArea from "./exports";
import * as scheduledExports from "./scheduled-exports";
import * as integrations from "./integrations";
import * as slack from "./slack";
import * as trackers from "./trackers";

/** Every contract, in documentation order. Add each new area here. */
export const allContracts: Contract<any, any, any>[] = [
  system,
  auth,
  apiKeys,
  aiKeys,
  projects,
  prd,
  live,
  builder,
  aiTools,
  memory,
  collaboration,
  files,
  search,
  templates,
  marketplace,
  user,
  notifications,
  webhooks,
  incoming,
  flagsNps,
  uploads,
  organization,
  branding,
  billing,
  admin,
  approvals,
  administration,
  exportsArea,
  scheduledExports,
  integrations,
  trackers,
  trackers.trackerWebhooks,
  slack,
]
  .flatMap((area) => Object.values(area) as unknown[])
  .filter((c): c is Contract<any, any, any> => typeof c === "object" && c !== null && "method" in c && "path" in c);
