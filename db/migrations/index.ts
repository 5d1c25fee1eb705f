import type { Migration } from "kysely";
import * as m0001 from "./0001_foundation";
import * as m0002 from "./0002_projects";
import * as m0003 from "./0003_templates";
import * as m0004 from "./0004_ai";
import * as m0005 from "./0005_project_names";
import * as m0006 from "./0006_user_account";
import * as m0007 from "./0007_notifications";
import * as m0008 from "./0008_webhooks";
import * as m0009 from "./0009_incoming_flags_nps";
import * as m0010 from "./0010_uploads";
import * as m0011 from "./0011_org_admin";
import * as m0012 from "./0012_billing";
import * as m0013 from "./0013_audit_allowlist";
import * as m0014 from "./0014_approvals";
import * as m0015 from "./0015_exports";
import * as m0016 from "./0016_security";
import * as m0017 from "./0017_api_key_scopes";
import * as m0018 from "./0018_event_dispatch";
import * as m0019 from "./0019_search_version";
import * as m0020 from "./0020_comment_anchors";
import * as m0021 from "./0021_live_docs";
import * as m0022 from "./0022_stakeholder_review_links";
import * as m0023 from "./0023_home_feed";
import * as m0024 from "./0024_trackers";
import * as m0025 from "./0025_slack";
import * as m0026 from "./0026_comment_search";
import * as m0027 from "./0027_tracker_oauth";
import * as m0028 from "./0028_tracker_send_locks";
import * as m0029 from "./0029_webhook_deliveries";
import * as m0030 from "./0030_job_lanes";

/** Explicit registry: works the same under tsx, vitest and the bundled build. */
export const migrations: Record<string, Migration> = {
  "0001_foundation": m0001,
  "0002_projects": m0002,
  "0003_templates": m0003,
  "0004_ai": m0004,
  "0005_project_names": m0005,
  "0006_user_account": m0006,
  "0007_notifications": m0007,
  "0008_webhooks": m0008,
  "0009_incoming_flags_nps": m0009,
  "0010_uploads": m0010,
  "0011_org_admin": m0011,
  "0012_billing": m0012,
  "0013_audit_allowlist": m0013,
  "0014_approvals": m0014,
  "0015_exports": m0015,
  "0016_security": m0016,
  "0017_api_key_scopes": m0017,
  "0018_event_dispatch": m0018,
  "0019_search_version": m0019,
  "0020_comment_anchors": m0020,
  "0021_live_docs": m0021,
  "0022_stakeholder_review_links": m0022,
  "0023_home_feed": m0023,
  "0024_trackers": m0024,
  "0025_slack": m0025,
  "0026_comment_search": m0026,
  "0027_tracker_oauth": m0027,
  "0028_tracker_send_locks": m0028,
  "0029_webhook_deliveries": m0029,
  "0030_job_lanes": m0030,
};
