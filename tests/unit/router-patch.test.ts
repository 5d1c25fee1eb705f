import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";

/**
 * scripts/patches/@remix-run+router+<version>.patch (applied by patch-package
 * in the postinstall script) makes the server's route matching compute the
 * ranked branches of a routes array once, and compile each path pattern to a
 * RegExp once. Without it every request re-ranks every route. These tests fail
 * when the patch was not applied (npm install run with --ignore-scripts, a
 * patch-package error) or no longer matches an upgraded @remix-run/router.
 */

const requireCjs = createRequire(import.meta.url);
// The CommonJS build: the one the patch edits, and the one Node loads for the server runtime.
const entry = requireCjs.resolve("@remix-run/router");
const router = requireCjs("@remix-run/router") as typeof import("@remix-run/router");
const patchDir = path.resolve("scripts/patches");

afterEach(() => {
  vi.restoreAllMocks();
});

describe("the @remix-run/router patch", () => {
  it("is for the installed version, and the installed code carries it", () => {
    const patches = fs.readdirSync(patchDir).filter((f) => f.startsWith("@remix-run+router+"));
    expect(patches).toHaveLength(1);
    const installed = (requireCjs("@remix-run/router/package.json") as { version: string }).version;
    expect(patches[0], "the patch file names the installed version").toBe(`@remix-run+router+${installed}.patch`);
    expect(path.basename(entry)).toBe("router.cjs.js");
    const code = fs.readFileSync(entry, "utf8");
    expect(code).toContain("const rankedBranchesCache = new WeakMap();");
    expect(code).toContain("const compiledPathCache = new Map();");
  });

  it("ranks the branches of a routes array once: later changes to the same array are not seen", () => {
    const routes: { id: string; path: string }[] = [{ id: "first", path: "/first" }];
    expect(router.matchRoutes(routes, "/second")).toBeNull();
    routes.push({ id: "second", path: "/second" });
    // Unpatched, the array is flattened and ranked again on every call and "/second" would match.
    expect(router.matchRoutes(routes, "/second")).toBeNull();
    // Another array is ranked afresh.
    expect(router.matchRoutes([...routes], "/second")?.[0]?.route.id).toBe("second");
  });

  it("compiles a path pattern once", () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    // A pattern ending in "*" without "/" warns each time it is compiled; a unique one is not cached yet.
    const pattern = `/router-patch-${process.pid}-${Date.now()}*`;
    router.matchPath(pattern, "/elsewhere");
    router.matchPath(pattern, "/elsewhere");
    router.matchPath({ path: pattern, caseSensitive: false, end: true }, "/elsewhere");
    expect(warn).toHaveBeenCalledTimes(1);
  });
});
