/** User profile fields, onboarding, activity (issue 9). */

// Table interfaces of this area; each is listed in UserAccountTables (merged into Database in ../schema.ts).
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
export interface UserAccountTables {}
