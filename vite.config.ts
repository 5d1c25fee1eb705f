/// <reference types="vitest/config" />
import fs from "node:fs";
import path from "node:path";
import { vitePlugin as remix } from "@remix-run/dev";
import { defineConfig } from "vite";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

const alias = {
  "~": path.resolve(__dirname, "app"),
  "#db": path.resolve(__dirname, "db"),
};

const TEST_DIRS = ["tests/api", "tests/unit", "app"];
const testFiles = TEST_DIRS.flatMap((dir) =>
  (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => f.endsWith(".test.ts")).map((f) => path.join(dir, f)),
);
/**
 * Test files run one after another in one process, their modules loaded once
 * (evaluating the app's ~900 modules again for every file cost 2–3 s a file,
 * two thirds of the suite). A file starts from the process's own environment,
 * a fresh DATA_DIR and configuration, with no worker thread left running
 * (tests/support/setup.ts). A file gets a process of its own when it mocks a
 * module (`vi.mock`: the module may already be loaded) or sets the
 * environment before it imports the app (a line starting `process.env.`:
 * modules that read it when loaded).
 */
const ownProcess = testFiles.filter((file) => /vi\.(?:do)?mock\(|^process\.env\./m.test(fs.readFileSync(file, "utf8")));

export default defineConfig({
  resolve: { alias },
  build: { target: "es2022" },
  server: { port: 3000 },
  plugins: [
    !process.env.VITEST &&
      remix({
        ignoredRouteFiles: ["**/*.test.*"],
        future: {
          v3_fetcherPersist: true,
          v3_relativeSplatPath: true,
          v3_throwAbortReason: true,
          v3_lazyRouteDiscovery: true,
          v3_singleFetch: true,
        },
      }),
  ],
  test: {
    setupFiles: ["tests/support/setup.ts"],
    pool: "forks",
    testTimeout: 20_000,
    hookTimeout: 30_000,
    projects: [
      { extends: true, test: { name: "shared", include: testFiles, exclude: ownProcess, isolate: false } },
      { extends: true, test: { name: "own-process", include: ownProcess, isolate: true } },
    ],
  },
});
