import { z } from "zod/v4";
import { QUEUES } from "~/jobs/lanes";
import { contract } from "../contract";

const checkStatus = z.enum(["ok", "unhealthy"]);
/** One background queue: a job lane (app/jobs/lanes.ts) or the outbox events. */
const queueCheck = z.object({
  status: checkStatus,
  queued: z.number().int(),
  running: z.number().int(),
  lagSeconds: z.number(),
  maxLagSeconds: z.number(),
});

export const health = contract({
  method: "GET",
  path: "/api/health",
  tag: "System",
  summary: "Service health",
  description:
    "Checks the database (a query), the background queues (each job lane and the outbox events: how long the " +
    "oldest due one has waited; a queue is unhealthy past its bound, HEALTH_QUEUE_LAG_SECONDS or else " +
    "HEALTH_MAX_QUEUE_LAG_SECONDS, and `checks.jobs.slow` names those) and the disk holding DATA_DIR (unhealthy below HEALTH_MIN_FREE_BYTES or " +
    "HEALTH_MIN_FREE_PERCENT free). `status` is `degraded` when any check is unhealthy. The answer is 200 either " +
    "way (the process is up; load balancers keep routing to it); monitors alert on `status`.",
  auth: "public",
  response: z.object({
    status: z.enum(["ok", "degraded"]),
    checks: z.object({
      database: z.object({ status: checkStatus, latencyMs: z.number() }),
      jobs: z.object({
        status: checkStatus,
        queued: z.number().int(),
        lagSeconds: z.number(),
        slow: z.array(z.enum(QUEUES)),
        queues: z.object({
          mail: queueCheck,
          webhooks: queueCheck,
          exports: queueCheck,
          trackers: queueCheck,
          slack: queueCheck,
          other: queueCheck,
          events: queueCheck,
        }),
      }),
      disk: z.object({ status: checkStatus, freeBytes: z.number(), totalBytes: z.number() }),
    }),
  }),
});

export const openapi = contract({
  method: "GET",
  path: "/api/openapi.json",
  tag: "System",
  summary: "This API as an OpenAPI 3.1 document",
  auth: "public",
});
