// Contracts of branding and custom domain. Each exported contract is picked up by ./index.ts.
import { z } from "zod/v4";
import { ADMIN_ROLES } from "~/domain/actor";
import { brandingUpdateSchema } from "~/domain/branding/branding.schema";
import { setDomainSchema } from "~/domain/domains/domains.schema";
import { contract } from "../contract";
import { success } from "./shapes";

const tag = "Organization";

const brandingShape = z.object({ primaryColor: z.string(), accentColor: z.string(), companyName: z.string(), logoUrl: z.string().nullable() });

export const getBranding = contract({
  method: "GET",
  path: "/api/organization/branding",
  tag,
  summary: "The organization's branding (an addition; also part of GET /api/organization/settings)",
  auth: "user",
  response: z.object({ branding: brandingShape }),
});

export const updateBranding = contract({
  method: "POST",
  path: "/api/organization/branding",
  tag,
  summary: "Set colours, company name and optionally the logo",
  description:
    "Body `{primaryColor?, accentColor?, companyName?, logo?}`: colours are hex (#abc or #aabbcc), companyName at most 100 characters; `logo` is an http(s) URL, a base64 image (data: URL or bare base64, same checks as the logo upload) or `null` to remove the logo. " +
    "A URL is stored as given and returned as `logoUrl` (it replaces an uploaded logo); it is refused (400 on `logo`) with credentials, over 2048 characters, or naming localhost or a literal private, loopback or reserved address — the policy of webhook targets (ALLOW_PRIVATE_WEBHOOK_TARGETS=true lifts it). Exports fetch it through the same guarded request as webhooks (names resolved and checked again, 5 s, at most 2 MB, an image type, 3 redirects) and re-encode it like an upload; when that fails the file is exported without a logo. " +
    "Admins and owners only. Returns the resulting branding.",
  auth: "user",
  roles: ADMIN_ROLES,
  body: brandingUpdateSchema,
  response: z.object({ branding: brandingShape }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"],
});

export const uploadLogo = contract({
  method: "POST",
  path: "/api/organization/branding/logo",
  tag,
  summary: "Upload the logo (multipart, field `file`; image, max 2 MB)",
  description:
    "JPEG, PNG, WebP, GIF (first frame) or AVIF decided from the bytes (SVG and anything else: 415 UNSUPPORTED_MEDIA_TYPE; an image that does not decode: 415). Over 2 MB is 413 while the body streams. Re-encoded as PNG, at most 512 px a side, metadata removed. `logoUrl` is public and changes with every upload.",
  auth: "user",
  roles: ADMIN_ROLES,
  requestType: "multipart",
  body: z.object({ file: z.string().meta({ format: "binary", description: "An image, at most 2 MB" }) }),
  response: z.object({ logoUrl: z.string() }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "PAYLOAD_TOO_LARGE", "UNSUPPORTED_MEDIA_TYPE"],
});

export const getLogo = contract({
  method: "GET",
  path: "/api/branding/logo/{orgId}/{hash}",
  tag,
  summary: "An organization's logo (public PNG, cacheable forever under its hash)",
  auth: "public",
  params: z.object({ orgId: z.string(), hash: z.string() }),
  responseType: "image/png",
  etag: { ifNoneMatch: true },
  errors: ["NOT_FOUND"],
});

const checkShape = z.object({ verified: z.boolean(), checks: z.object({ cname: z.boolean(), txt: z.boolean() }), message: z.string() });
const domainShape = z
  .object({
    domain: z.string(),
    verified: z.boolean(),
    verifiedAt: z.string().nullable(),
    records: z.array(z.object({ type: z.enum(["CNAME", "TXT"]), name: z.string(), value: z.string() })),
    lastCheck: checkShape.extend({ at: z.string() }).nullable(),
  })
  .nullable();

export const getDomain = contract({
  method: "GET",
  path: "/api/organization/domain",
  tag,
  summary: "The custom domain, the DNS records to create and the last check (an addition; `domain: null` when none)",
  auth: "user",
  roles: ADMIN_ROLES,
  response: z.object({ domain: domainShape }),
  errors: ["FORBIDDEN"],
});

export const setDomain = contract({
  method: "POST",
  path: "/api/organization/domain",
  tag,
  summary: "Set the custom domain",
  description:
    "Body `{domain}`: a hostname such as docs.example.com (lower-cased; no scheme, port, path or IP). A new domain starts unverified with a fresh TXT token; 409 CONFLICT when another organization has verified it. Returns the domain with the two DNS records to create.",
  auth: "user",
  roles: ADMIN_ROLES,
  body: setDomainSchema,
  response: z.object({ domain: domainShape }),
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "CONFLICT"],
});

export const removeDomain = contract({
  method: "DELETE",
  path: "/api/organization/domain",
  tag,
  summary: "Remove the custom domain (an addition)",
  auth: "user",
  roles: ADMIN_ROLES,
  response: success,
  errors: ["FORBIDDEN"],
});

export const verifyDomain = contract({
  method: "POST",
  path: "/api/organization/domain/verify",
  tag,
  summary: "Check the CNAME and TXT records of the custom domain",
  description:
    "CNAME of the domain must be the app's host (from APP_URL) and the TXT record `_prd-verification.<domain>` must hold the token shown in GET /api/organization/domain. Looked up through DNS_SERVERS when configured. 5 checks a minute per organization: 429 RATE_LIMITED with Retry-After and X-RateLimit-* headers. 400 VALIDATION_ERROR when no domain is set.",
  auth: "user",
  roles: ADMIN_ROLES,
  response: checkShape,
  errors: ["VALIDATION_ERROR", "FORBIDDEN", "RATE_LIMITED", "CONFLICT"],
});
