import path from "node:path";
import { defineConfig } from "vitest/config";

/** Playwright journeys against the production build (npm run build first). */
export default defineConfig({
  resolve: { alias: { "~": path.resolve(__dirname, "app"), "#db": path.resolve(__dirname, "db") } },
  test: {
    include: ["tests/e2e/**/*.e2e.ts"],
    globalSetup: ["tests/e2e/global-setup.ts"],
    pool: "forks",
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
