import { z } from "zod/v4";
import { contract } from "../contract";

const checkStatus = z.enum(["ok", "unhealthy"]);

export const health = contract({
  method: "GET",
  path: "/api/health",
  tag: "System",
  summary: "Service health",
  description:
    "Checks the database (a query), the job queue (how long the oldest due job has waited; unhealthy past " +
    "HEALTH_MAX_QUEUE_LAG_SECONDS) and the disk holding DATA_DIR (unhealthy below HEALTH_MIN_FREE_BYTES or " +
    "HEALTH_MIN_FREE_PERCENT free). `status` is `degraded` when any check is unhealthy. The answer is 200 either " +
    "way (the process is up; load balancers keep routing to it); monitors alert on `status`.",
  auth: "public",
  response: z.object({
    status: z.enum(["ok", "degraded"]),
    checks: z.object({
      database: z.object({ status: checkStatus, latencyMs: z.number() }),
      jobs: z.object({ status: checkStatus, queued: z.number().int(), lagSeconds: z.number() }),
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
