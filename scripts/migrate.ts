/** Applies pending migrations to DATA_DIR/app.db (npm run db:migrate). */
import path from "node:path";
import { createDb, migrateToLatest } from "../db/client";

const dataDir = path.resolve(process.env.DATA_DIR ?? "./data");
const { db } = createDb(path.join(dataDir, "app.db"));
const applied = await migrateToLatest(db);
console.log(applied.length ? `Applied: ${applied.join(", ")}` : "Database is up to date");
await db.destroy();
