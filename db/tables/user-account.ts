/** User profile fields, onboarding, activity. */

/**
 * One row per user (created on first write), beside `users` so the frozen
 * accounts table keeps its shape. Deleted with the user (FK cascade).
 */
export interface UserProfilesTable {
  userId: string;
  jobTitle: string | null;
  bio: string | null;
  /** http(s) URL of the avatar image. */
  avatarUrl: string | null;
  /** One of PRD_STYLES (comprehensive, technical, business, lean, agile). */
  preferredStyle: string | null;
  /** JSON object: the answers of the onboarding wizard (company, useCase, teamSize, prdStyle, interests). */
  onboardingPreferences: string;
  onboardingCompletedAt: string | null;
  /** Written at most once per 5 minutes by POST /api/user/activity. */
  lastActiveAt: string | null;
  createdAt: string;
  updatedAt: string;
}

// Table interfaces of this area; each is listed in UserAccountTables (merged into Database in ../schema.ts).
export interface UserAccountTables {
  userProfiles: UserProfilesTable;
}
