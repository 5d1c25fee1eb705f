/**
 * `npm run db:seed`: the demo workspace "Acme Robotics" in DATA_DIR (./data by
 * default), built by db/seed/demo/. Sign in as demo@example.com /
 * Demo-Password-1. Running it again changes nothing.
 *
 * The PRDs and AI results are always written by the built-in offline drafter,
 * even when the environment holds AI keys: the demo is the same on every
 * machine, works without a network and spends nobody's AI budget.
 */
for (const key of ["OPENAI_API_KEY", "ANTHROPIC_API_KEY", "GOOGLE_API_KEY", "OPENAI_BASE_URL", "ANTHROPIC_BASE_URL", "GOOGLE_API_BASE_URL"]) {
  delete process.env[key];
}

export {};

// Imported after the environment is settled (the configuration is read on first use).
const { seedDemo, describeSeed } = await import("./seed/demo/seed");
const { closeDb } = await import("~/db.server");

try {
  console.log(describeSeed(await seedDemo()));
} catch (error) {
  console.error(`Demo seed failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 1;
} finally {
  await closeDb();
}
