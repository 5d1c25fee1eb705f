import { db } from "~/db.server";
import { sha256 } from "~/utils/ids.server";
import { orgForHost } from "../domains/domains.server";

/** The organization owning a share token (expired or password-protected included); null when unknown. */
async function shareTokenOrgId(token: string) {
  const row = await db
    .selectFrom("projectShares as s")
    .innerJoin("projects as p", "p.id", "s.projectId")
    .select("p.orgId")
    .where("s.tokenHash", "=", sha256(token.trim()))
    .executeTakeFirst();
  return row?.orgId ?? null;
}

/**
 * For the public share page: on a verified custom domain (Host header) only
 * that organization's tokens open (others: a 404 response is thrown); returns
 * the organization whose branding the page shows, or null for none.
 */
export async function shareBrandOrgId(request: Request, token: string): Promise<string | null> {
  const host = await orgForHost(request.headers.get("Host") ?? new URL(request.url).host);
  const orgId = await shareTokenOrgId(token);
  if (host && orgId && orgId !== host.id) throw new Response("Not found", { status: 404 });
  return orgId ?? host?.id ?? null;
}
