import { sql } from "kysely";
import { db } from "~/db.server";
import { apiRoute, endpoint } from "~/http/api.server";
import { health } from "~/http/contracts/system";

const route = apiRoute(
  endpoint(health, async () => {
    try {
      await sql`SELECT 1`.execute(db);
      return { status: "ok" };
    } catch {
      return { status: "degraded" };
    }
  }),
);
export const loader = route.loader;
export const action = route.action;
