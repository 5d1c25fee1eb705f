import { z } from "zod/v4";

/** Schema pieces shared by the areas' input schemas (JSON bodies and HTML forms alike). */

/** A boolean from JSON, a query string or a checkbox ("on"); "" is false. */
export const formBoolean = z
  .union([z.boolean(), z.enum(["true", "false", "1", "0", "on", ""])])
  .transform((v) => v === true || v === "true" || v === "1" || v === "on");
