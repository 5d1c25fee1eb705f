import { sql, type Kysely } from "kysely";

// Frozen: never edit after it has landed. Add a new numbered migration instead.
// Lanes of background work (docs/design/background-work.md, "Lanes"): each job
// records the lane that runs it, so a lane with a free slot claims its own
// oldest due job through an index however long another lane's backlog is; and
// the lease records the process holding it (`lockedBy`), so a restarted
// process takes back at once the jobs its predecessor left running.
// Queued and running jobs of the app's types get their lane; the rest keep `other`.

export async function up(db: Kysely<unknown>) {
  await sql.raw("ALTER TABLE jobs ADD COLUMN lane TEXT NOT NULL DEFAULT 'other'").execute(db);
  await sql.raw("ALTER TABLE jobs ADD COLUMN lockedBy TEXT").execute(db);
  await sql
    .raw(`UPDATE jobs SET lane = CASE
      WHEN type LIKE 'email.%' THEN 'mail'
      WHEN type LIKE 'webhooks.%' THEN 'webhooks'
      WHEN type LIKE 'scheduled-export.%' THEN 'exports'
      WHEN type LIKE 'tracker.%' OR type LIKE 'trackers.%' THEN 'trackers'
      WHEN type LIKE 'slack.%' THEN 'slack'
      ELSE 'other' END
    WHERE status IN ('queued', 'running')`)
    .execute(db);
  await sql.raw("CREATE INDEX jobs_lane_due ON jobs(lane, runAt) WHERE status = 'queued'").execute(db);
}

export async function down(db: Kysely<unknown>) {
  await sql.raw("DROP INDEX IF EXISTS jobs_lane_due").execute(db);
  await sql.raw("ALTER TABLE jobs DROP COLUMN lockedBy").execute(db);
  await sql.raw("ALTER TABLE jobs DROP COLUMN lane").execute(db);
}
