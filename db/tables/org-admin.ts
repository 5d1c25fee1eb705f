/** Organization settings, members, invitations, teams (issue 10). */

// Table interfaces of this area; each is listed in OrgAdminTables (merged into Database in ../schema.ts).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface OrgAdminTables {}
