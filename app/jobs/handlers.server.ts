import { type Listener, onEvent } from "~/domain/events/events.server";
import { EMAIL_SEND_JOB, emailSendJob } from "~/domain/mail/mail.server";
import { WEEKLY_DIGEST_JOB, weeklyDigestJob } from "~/domain/notifications/digest.server";
import { notificationsListener } from "~/domain/notifications/listeners.server";
import { RUN_JOB, scheduledExportRunJob, scheduledExportsListener, scheduledExportsTick } from "~/domain/scheduled-exports/runs.server";
import { EMBED_JOB, embedJob } from "~/domain/search/embeddings.server";
import { webhookDeliveryJob, webhooksListener } from "~/domain/webhooks/delivery.server";
import { slackPostJob } from "~/domain/slack/deliver.server";
import { SLACK_POST_JOB, slackListener } from "~/domain/slack/messages.server";
import { DELIVERY_JOB } from "~/domain/webhooks/webhooks.server";
import { walCheckpointTick } from "~/ops/checkpoint.server";
import { registerTick } from "./scheduler.server";
import type { JobHandler, Tick } from "./types";
import { registerJobHandler } from "./worker.server";

/**
 * The registry of background work: every job handler, outbox-event listener
 * and scheduler tick of the app, listed here and nowhere else. Domain modules
 * only export them (typed by ./types.ts); importing a domain module registers
 * nothing. lifecycle.server.ts calls registerBackgroundWork() at start-up, and
 * so do tests that run jobs, dispatch events or start the scheduler.
 *
 * Adding one: export it from its domain module, then add a line here.
 */

/** Job handlers by job type (the type a module enqueues with app/jobs/queue.server.ts). */
export const JOB_HANDLERS: Readonly<Record<string, JobHandler>> = {
  [EMAIL_SEND_JOB]: emailSendJob,
  [DELIVERY_JOB]: webhookDeliveryJob,
  [WEEKLY_DIGEST_JOB]: weeklyDigestJob,
  [EMBED_JOB]: embedJob,
  [RUN_JOB]: scheduledExportRunJob,
  [SLACK_POST_JOB]: slackPostJob,
};

/** Outbox-event listeners by name, called in this order for every event (domain/events/dispatch.server.ts). */
export const EVENT_LISTENERS: Readonly<Record<string, Listener>> = {
  webhooks: webhooksListener,
  notifications: notificationsListener,
  "scheduled-exports": scheduledExportsListener,
  slack: slackListener,
};

/** Scheduler ticks (the fixed job schedules are SCHEDULES in ./scheduler.server.ts). */
export const TICKS: readonly Tick[] = [walCheckpointTick, scheduledExportsTick];

/** Registers everything above with the worker, the event dispatcher and the scheduler. Idempotent. */
export function registerBackgroundWork() {
  for (const [type, handler] of Object.entries(JOB_HANDLERS)) registerJobHandler(type, handler);
  for (const [name, listener] of Object.entries(EVENT_LISTENERS)) onEvent(name, listener);
  for (const tick of TICKS) registerTick(tick);
}
