import { z } from "zod/v4";
import { formBoolean } from "../form-fields";

export const INCOMING_ACTIONS = ["create_project", "add_comment", "notify_members"] as const;
export const INCOMING_ACTION_LABELS: Record<(typeof INCOMING_ACTIONS)[number], string> = {
  create_project: "Create a project",
  add_comment: "Comment on a project",
  notify_members: "Notify all members",
};

/** Largest body accepted by POST /api/webhooks/incoming/{token}. */
export const INCOMING_MAX_BYTES = 1_048_576;
/** Requests per minute per endpoint token. */
export const INCOMING_RATE_PER_MINUTE = 120;
/** Events returned by the event log. */
export const INCOMING_EVENT_LOG = 50;

const emptyToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);
const projectId = z.preprocess(emptyToUndefined, z.string().trim().min(1).max(100).optional());

export const createIncomingSchema = z.object({
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(100),
  action: z.enum(INCOMING_ACTIONS, { error: `Action must be one of ${INCOMING_ACTIONS.join(", ")}` }),
  /** `projectId` is required for add_comment. UI forms may send it flat as `projectId`. */
  config: z.object({ projectId }).default({}),
  isActive: formBoolean.default(true),
});
export type CreateIncomingInput = z.infer<typeof createIncomingSchema>;

export const updateIncomingSchema = z.object({
  name: z.string().trim().min(1, "Name cannot be empty").max(100).optional(),
  config: z.object({ projectId }).optional(),
  isActive: formBoolean.optional(),
  /** Issues a new token; the old URL stops working at once. */
  rotateToken: formBoolean.optional(),
});
export type UpdateIncomingInput = z.infer<typeof updateIncomingSchema>;
