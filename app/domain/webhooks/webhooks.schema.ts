import { z } from "zod/v4";
import { EVENT_NAMES } from "../events/catalogue";

/** Input schemas of outgoing webhooks, shared by the API and the settings pages. */

/** Groups a subscription may name (`project.*` ...), derived from the catalogue. */
export const EVENT_GROUPS = [...new Set(EVENT_NAMES.map((n) => n.split(".")[0]!))];

/** `*`, a catalogue name, or `<group>.*` for a group that exists. */
export function isEventPattern(value: string) {
  if (value === "*") return true;
  if ((EVENT_NAMES as readonly string[]).includes(value)) return true;
  return value.endsWith(".*") && EVENT_GROUPS.includes(value.slice(0, -2));
}

/** HTTP header token (RFC 9110), minus headers the delivery sets itself. */
const RESERVED_HEADERS = [
  "content-type",
  "content-length",
  "host",
  "user-agent",
  "connection",
  "transfer-encoding",
  "x-webhook-event",
  "x-webhook-id",
  "x-webhook-timestamp",
];

const name = z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(100);
const url = z
  .string({ error: "URL is required" })
  .trim()
  .min(1, "URL is required")
  .max(2048, "URL is too long")
  .refine((v) => {
    try {
      const u = new URL(v);
      return (u.protocol === "https:" || u.protocol === "http:") && u.hostname.length > 0;
    } catch {
      return false;
    }
  }, "Enter a full http:// or https:// URL");
const events = z
  .array(
    z
      .string()
      .trim()
      .refine(isEventPattern, { error: (issue) => `Unknown event "${String(issue.input)}": use a catalogue name, a group such as project.*, or *` }),
    {
      error: "events must be a list of event names",
    },
  )
  .min(1, "Choose at least one event")
  .max(50)
  .transform((list) => [...new Set(list)]);
const secret = z.string().min(16, "The secret needs at least 16 characters").max(256);
const signatureHeaderName = z
  .string()
  .trim()
  .min(1)
  .max(100)
  .regex(/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/, "Use a valid HTTP header name (letters, digits and - _ . only)")
  .transform((v) => v.toLowerCase())
  .refine((v) => !RESERVED_HEADERS.includes(v), "This header is set by the delivery itself; choose another name");

export const createWebhookSchema = z.object({
  name,
  url,
  events,
  secret: secret.optional(),
  isActive: z.boolean().default(true),
  signatureHeaderName: signatureHeaderName.default("x-webhook-signature"),
});
export type CreateWebhookInput = z.infer<typeof createWebhookSchema>;

export const updateWebhookSchema = z.object({
  name: name.optional(),
  url: url.optional(),
  events: events.optional(),
  secret: secret.optional(),
  isActive: z.boolean().optional(),
  signatureHeaderName: signatureHeaderName.optional(),
});
export type UpdateWebhookInput = z.infer<typeof updateWebhookSchema>;
