import { db } from "~/db.server";
import type { Actor } from "../actor";
import { readableProjects } from "../projects/access.server";
import { auditActor, writeAudit } from "../audit/audit.server";
import { getOnboarding } from "./onboarding.server";
import { getProfile } from "./profile.server";

const parse = (json: string) => {
  try {
    return JSON.parse(json);
  } catch {
    return json;
  }
};

/**
 * Everything the user owns or wrote, as one JSON document: profile,
 * onboarding answers, memberships, the projects they created (and may still
 * read) with their PRDs and versions, comments they wrote, memories, personal
 * AI keys (masked), REST API key metadata (never hashes) and their notifications. Nothing that
 * belongs to another user: other people's comments, memories and keys stay out.
 */
export async function exportUserData(actor: Actor) {
  const userId = actor.user.id;
  const { profile } = await getProfile(actor);
  const onboarding = await getOnboarding(actor);
  const memberships = await db
    .selectFrom("memberships as m")
    .innerJoin("organizations as o", "o.id", "m.orgId")
    .select(["o.id as organizationId", "o.name as organizationName", "m.role", "m.createdAt as joinedAt"])
    .where("m.userId", "=", userId)
    .orderBy("m.createdAt")
    .execute();
  // The projects they created that they may still read (readableProjects, with their role in each organization).
  const projects = await db
    .selectFrom("projects as p")
    .selectAll("p")
    .where("p.createdById", "=", userId)
    .where((eb) => eb.or(memberships.map((m) => readableProjects({ user: actor.user, org: { id: m.organizationId }, role: m.role }))))
    .orderBy("p.createdAt")
    .execute();
  const projectIds = projects.map((p) => p.id);
  const [prds, versions] = projectIds.length
    ? await Promise.all([
        db
          .selectFrom("prds")
          .select(["projectId", "content", "style", "currentVersionId", "createdAt", "updatedAt"])
          .where("projectId", "in", projectIds)
          .execute(),
        db
          .selectFrom("prdVersions")
          .select(["id", "projectId", "number", "content", "style", "createdAt"])
          .where("projectId", "in", projectIds)
          .orderBy("projectId")
          .orderBy("number")
          .execute(),
      ])
    : [[], []];
  const comments = await db
    .selectFrom("comments")
    .select(["id", "projectId", "parentId", "content", "section", "createdAt", "updatedAt", "editedAt", "deletedAt"])
    .where("userId", "=", userId)
    .orderBy("createdAt")
    .execute();
  const memories = await db
    .selectFrom("memories")
    .select(["id", "memoryType", "category", "content", "summary", "importance", "isActive", "sourceProjectId", "createdAt", "updatedAt"])
    .where("userId", "=", userId)
    .orderBy("createdAt")
    .execute();
  const aiProviderKeys = await db
    .selectFrom("aiProviderKeys")
    .select(["id", "provider", "name", "keyHint as maskedKey", "lastUsedAt", "createdAt"])
    .where("scope", "=", "user")
    .where("userId", "=", userId)
    .execute();
  const apiKeys = await db
    .selectFrom("apiKeys")
    .select(["id", "orgId", "name", "prefix", "expiresAt", "lastUsedAt", "revokedAt", "createdAt"])
    .where("userId", "=", userId)
    .execute();
  const notifications = await db
    .selectFrom("notifications")
    .select(["id", "orgId", "type", "title", "body", "link", "data", "readAt", "createdAt"])
    .where("userId", "=", userId)
    .orderBy("createdAt")
    .execute();

  const document = {
    exportedAt: new Date().toISOString(),
    format: "prd-studio-user-export/1",
    profile,
    onboarding,
    memberships,
    projects: projects.map((p) => ({
      ...p,
      prd: prds.find((d) => d.projectId === p.id) ?? null,
      versions: versions.filter((v) => v.projectId === p.id),
    })),
    comments,
    memories: memories.map((m) => ({ ...m, isActive: Boolean(m.isActive) })),
    aiProviderKeys,
    apiKeys,
    notifications: notifications.map((n) => ({ ...n, data: parse(n.data) })),
  };
  const day = document.exportedAt.slice(0, 10);
  await writeAudit(db, {
    ...auditActor(actor),
    action: "user.data_exported",
    category: "security",
    severity: "warning",
    targetType: "user",
    targetId: userId,
  });
  return {
    filename: `prd-studio-data-${day}.json`,
    contentType: "application/json; charset=utf-8",
    body: Buffer.from(JSON.stringify(document, null, 2), "utf8"),
  };
}
