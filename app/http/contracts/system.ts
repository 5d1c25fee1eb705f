import { z } from "zod/v4";
import { contract } from "../contract";

export const health = contract({
  method: "GET",
  path: "/api/health",
  tag: "System",
  summary: "Service health",
  description: "Checks the database. `degraded` means the process is up but the database did not answer.",
  auth: "public",
  response: z.object({ status: z.enum(["ok", "degraded"]) }),
});

export const openapi = contract({
  method: "GET",
  path: "/api/openapi.json",
  tag: "System",
  summary: "This API as an OpenAPI 3.1 document",
  auth: "public",
});
