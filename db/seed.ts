/**
 * `npm run db:seed`: the demo workspace "Acme Robotics" in DATA_DIR (./data by
 * default), built by db/seed/demo/. It prints the e-mail addresses and the
 * password made for this run (shown only then). Running it again changes
 * nothing. It refuses with NODE_ENV=production or on a database that holds
 * other organizations, writing nothing, unless `npm run db:seed -- --force`.
 * DEMO_PASSWORD sets the password instead of a random one (the screenshots
 * script uses it).
 *
 * The PRDs and AI results are always written by the built-in offline drafter,
 * even when the environment holds AI keys: the demo is the same on every
 * machine, works without a network and spends nobody's AI budget.
 */
for (const key of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "GOOGLE_API_BASE_URL"]) {
  delete process.env[key];
}

export {};

const force = process.argv.slice(2).includes("--force");
const password = process.env.DEMO_PASSWORD || undefined;

// Imported after the environment is settled (the configuration is read on first use).
const { seedDemo, describeSeed, SeedRefused } = await import("./seed/demo/seed");
const { closeDb } = await import("~/db.server");

try {
  console.log(describeSeed(await seedDemo({ force, password })));
} catch (error) {
  const refused = error instanceof SeedRefused;
  console.error(`${refused ? "Demo seed refused" : "Demo seed failed (nothing was written)"}: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await closeDb();
}
