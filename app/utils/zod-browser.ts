import { z } from "zod/v4";

/**
 * Zod compiles object parsers with `new Function` unless told not to; to know
 * whether it may, it tries `new Function("")` when the first object schema is
 * built. Under the pages' Content-Security-Policy (no 'unsafe-eval') that
 * probe is refused and the browser reports a violation on every page that
 * defines a schema. In the browser Zod therefore runs without it (forms
 * validate a handful of fields; the interpreter is plenty fast). root.tsx
 * imports this first, so it runs before any route module builds a schema.
 * The server keeps the compiled parsers.
 */
if (typeof document !== "undefined") z.config({ jitless: true });
