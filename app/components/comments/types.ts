import type { AnchorStatus } from "~/domain/collaboration/collaboration.schema";

/** A comment as the panel shows it (the shape of GET …/comments, of which the panel needs these fields). */
export interface CommentView {
  id: string;
  content: string;
  section: string | null;
  deleted: boolean;
  user: { id: string; name: string } | null;
  createdAt: string;
  editedAt: string | null;
  anchor?: { quote: string; prefix: string | null; suffix: string | null; status: AnchorStatus } | null;
  resolved?: boolean;
  resolvedAt?: string | null;
  resolvedBy?: { id: string; name: string } | null;
  replies?: CommentView[];
}

/** Someone the comment box offers after `@` (GET …/comments/mentionable). */
export interface MentionCandidate {
  id: string;
  name: string;
  email: string;
}
