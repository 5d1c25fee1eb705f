import { z } from "zod/v4";

/** A DNS hostname with at least two labels, no scheme, port or path; stored lower-case without a trailing dot. */
export const hostname = z
  .string()
  .trim()
  .toLowerCase()
  .transform((v) => v.replace(/\.$/, ""))
  .pipe(
    z
      .string()
      .max(253, "At most 253 characters")
      .regex(
        /^(?=.{1,253}$)(?:(?!-)[a-z0-9-]{1,63}(?<!-)\.)+(?!-)[a-z0-9-]{2,63}(?<!-)$/,
        "Enter a hostname such as docs.example.com (no https://, port or path)",
      )
      .refine((v) => !/^[0-9.]+$/.test(v), "Enter a hostname, not an IP address"),
  );

export const setDomainSchema = z.strictObject({ domain: hostname });
export type SetDomainInput = z.output<typeof setDomainSchema>;

export const VERIFY_PER_MINUTE = 5;
export const TXT_PREFIX = "_prd-verification";
