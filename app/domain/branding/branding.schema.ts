import { z } from "zod/v4";
import { hexColor } from "../orgs/orgs.schema";

/** Inputs of branding (POST /api/organization/branding). */

export const MAX_LOGO_BYTES = 2 * 1024 * 1024;
export const MAX_LOGO_DIMENSION = 512;

export const brandingUpdateSchema = z.strictObject({
  primaryColor: hexColor.optional(),
  accentColor: hexColor.optional(),
  companyName: z.string().trim().max(100, "At most 100 characters").optional(),
  /** `null` removes the logo; a base64 image (data: URL or bare base64) is stored like an upload. */
  logo: z.string().max(3_000_000, "The logo is larger than 2 MB").nullable().optional(),
});
export type BrandingUpdate = z.output<typeof brandingUpdateSchema>;
