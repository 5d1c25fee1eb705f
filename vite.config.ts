/// <reference types="vitest/config" />
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
    include: ["tests/api/**/*.test.ts", "tests/unit/**/*.test.ts", "app/**/*.test.ts"],
    setupFiles: ["tests/support/setup.ts"],
    pool: "forks",
    testTimeout: 20_000,
    hookTimeout: 30_000,
  },
});
