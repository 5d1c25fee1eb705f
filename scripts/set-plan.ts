/**
 * Operator tool: change the plan of the organizations a user owns.
 *   npm run org:plan -- owner@example.com pro
 */
import path from "node:path";
import { createDb } from "../db/client";

const PLANS = ["free", "starter", "pro", "enterprise"];
const [email, plan] = process.argv.slice(2);
if (!email || !plan || !PLANS.includes(plan)) {
  console.error(`Usage: npm run org:plan -- <owner e-mail> <${PLANS.join("|")}>`);
  process.exit(1);
}
const dataDir = path.resolve(process.env.DATA_DIR ?? "./data");
const { db } = createDb(path.join(dataDir, "app.db"));
const orgs = await db
  .selectFrom("memberships as m")
  .innerJoin("users as u", "u.id", "m.userId")
  .innerJoin("organizations as o", "o.id", "m.orgId")
  .select(["o.id", "o.name", "o.plan"])
  .where("u.email", "=", email.toLowerCase())
  .where("m.role", "=", "owner")
  .execute();
if (!orgs.length) {
  console.error(`No organization owned by ${email}`);
  process.exit(1);
}
for (const org of orgs) {
  await db
    .updateTable("organizations")
    .set({ plan: plan as "free", updatedAt: new Date().toISOString() })
    .where("id", "=", org.id)
    .execute();
  console.log(`${org.name}: ${org.plan} -> ${plan}`);
}
await db.destroy();
