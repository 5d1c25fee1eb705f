// Contracts of this area. Each exported contract is picked up by ./index.ts.
import { z } from "zod/v4";
import {
  listNotificationsQuery,
  preferencesShape,
  unsubscribeSchema,
  updateNotificationSchema,
  updatePreferencesSchema,
} from "~/domain/notifications/notifications.schema";
import { contract } from "../contract";
import { success } from "./shapes";

const tag = "Notifications";

const notificationShape = z.object({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  body: z.string().nullable(),
  link: z.string().nullable(),
  data: z.record(z.string(), z.unknown()),
  read: z.boolean(),
  readAt: z.string().nullable(),
  orgId: z.string().nullable(),
  createdAt: z.string(),
});
const params = z.object({ notificationId: z.string() });

export const listNotifications = contract({
  method: "GET",
  path: "/api/notifications",
  tag,
  summary: "List your notifications, newest first",
  description:
    "`limit` default 50, max 200; `offset`; `unread=true` returns only unread ones. `total` counts the filtered list; `unreadCount` all your unread notifications.",
  auth: "user",
  query: listNotificationsQuery,
  response: z.object({ notifications: z.array(notificationShape), unreadCount: z.number(), total: z.number() }),
  errors: ["VALIDATION_ERROR"],
});

export const updateNotification = contract({
  method: "PATCH",
  path: "/api/notifications/{notificationId}",
  tag,
  summary: "Mark a notification read or unread",
  auth: "user",
  params,
  body: updateNotificationSchema,
  response: z.object({ notification: notificationShape }),
  errors: ["VALIDATION_ERROR", "NOT_FOUND"],
});

export const deleteNotification = contract({
  method: "DELETE",
  path: "/api/notifications/{notificationId}",
  tag,
  summary: "Delete a notification",
  auth: "user",
  params,
  response: success,
  errors: ["NOT_FOUND"],
});

export const markAllRead = contract({
  method: "POST",
  path: "/api/notifications/mark-all-read",
  tag,
  summary: "Mark all your notifications read",
  auth: "user",
  response: z.object({ success: z.literal(true), updated: z.number() }),
});

export const getPreferences = contract({
  method: "GET",
  path: "/api/user/notification-preferences",
  tag,
  summary: "Your notification preferences",
  description: "Defaults: everything on except `weeklyDigest`.",
  auth: "user",
  response: preferencesShape,
});

export const updatePreferences = contract({
  method: "PATCH",
  path: "/api/user/notification-preferences",
  tag,
  summary: "Change notification preferences",
  description: "Any subset of the eight booleans; unknown keys or non-boolean values are 400 VALIDATION_ERROR. Returns all eight.",
  auth: "user",
  body: updatePreferencesSchema,
  response: preferencesShape,
  errors: ["VALIDATION_ERROR"],
});

export const unsubscribe = contract({
  method: "POST",
  path: "/api/unsubscribe",
  tag,
  summary: "Unsubscribe with an e-mailed token (no sign-in)",
  description:
    "Turns off the token's category (or `category`, e.g. `emailNotifications` for all e-mail) and consumes the token. Unknown, tampered or already used token: 401 INVALID_TOKEN; expired (60 days): 410 TOKEN_EXPIRED.",
  auth: "public",
  body: unsubscribeSchema,
  response: z.object({ success: z.literal(true), category: z.string(), preferences: preferencesShape }),
  errors: ["VALIDATION_ERROR", "INVALID_TOKEN", "TOKEN_EXPIRED"],
});
