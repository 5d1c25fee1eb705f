import type { Selectable } from "kysely";
import type { StakeholderViewsTable } from "#db/schema";
import { storedReviewUrl } from "./review-links.server";

export type ViewRow = Selectable<StakeholderViewsTable>;

/**
 * Who is reading a stakeholder view, which decides what it shows:
 * - `manager`: may manage the project; sees each reviewer's personal link;
 * - `reader`: reads the project; everything but the links;
 * - `shareLink`: anyone holding the share link; no links, no e-mail addresses;
 * - `reviewer`: the holder of this request's personal link; no link (they have it).
 */
export type ViewReader = "manager" | "reader" | "shareLink" | "reviewer";

export function presentView(r: ViewRow, reader: ViewReader) {
  const addresses = reader !== "shareLink";
  return {
    id: r.id,
    name: r.name,
    stakeholderName: r.stakeholderName,
    stakeholderEmail: addresses ? r.stakeholderEmail : null,
    audience: r.audience,
    sections: JSON.parse(r.sections) as string[],
    notes: r.notes,
    kind: r.kind as "view" | "review" | "ai_review",
    /** For AI coach reviews (`kind: "ai_review"`): `{review, model}`. */
    payload: JSON.parse(r.payload) as Record<string, unknown>,
    reviewStatus: r.reviewStatus,
    feedback: r.feedback,
    resolvedAt: r.resolvedAt,
    resolvedByName: r.resolvedByName,
    /** Which link the latest decision came through. */
    resolvedVia: r.resolvedVia,
    /** Set when the latest decision came through a personal link that had been mailed to this address. */
    resolvedByEmail: addresses ? r.resolvedByEmail : null,
    personalLinkOnly: r.personalLinkOnly === 1,
    /** The reviewer's personal review link: only for those who manage the project. */
    reviewUrl: reader === "manager" ? storedReviewUrl(r.reviewTokenEncrypted) : null,
    linkSentAt: r.reviewLinkSentAt,
    createdAt: r.createdAt,
  };
}
export type ViewOut = ReturnType<typeof presentView>;
