/** Who each comment mentions, one row per (comment, user): kept by triggers on comments (migration 0023), read by the Home page. */
export interface CommentMentionsTable {
  commentId: string;
  userId: string;
  /** When the mention was made: the comment's creation, or the edit that added it. */
  createdAt: string;
}

// Table interfaces of this area; each is listed in CommentMentionsTables (merged into Database in ../schema.ts).
export interface CommentMentionsTables {
  commentMentions: CommentMentionsTable;
}
