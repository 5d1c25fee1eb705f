import type { Kysely } from "kysely";

// Organization settings, members, invitations, teams (issue 10).
// Not landed yet: editable until the issue that adds it is resolved; frozen after.

export async function up(_db: Kysely<unknown>) {}

export async function down(_db: Kysely<unknown>) {}
