/** Organization settings, members, invitations, teams. */

export interface TeamsTable {
  id: string;
  orgId: string;
  name: string;
  description: string;
  color: string | null;
  isArchived: number;
  createdById: string | null;
  createdAt: string;
  updatedAt: string;
}

// Table interfaces of this area; each is listed in OrgAdminTables (merged into Database in ../schema.ts).
export interface OrgAdminTables {
  teams: TeamsTable;
}
