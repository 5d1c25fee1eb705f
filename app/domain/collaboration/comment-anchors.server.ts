import type { Executor } from "~/db.server";
import { readerText, type ReaderText, sectionAt } from "~/utils/markdown-text.server";
import { createLocator, type TextAnchor } from "~/utils/text-anchor";
import type { AnchorStatus } from "./collaboration.schema";

/**
 * Where comments' quoted passages are in a project's current PRD. Worked out
 * when comments are read, from the PRD's reader text (`readerText`), so an
 * edit that moves or rewords a passage a little keeps its comments on it.
 *
 * - `anchored`: the passage is still in the PRD (`locateQuote`);
 * - `section`: it is gone, but the section the comment was on still exists;
 * - `lost`: neither.
 */

export interface AnchorView {
  quote: string;
  prefix: string | null;
  suffix: string | null;
  status: AnchorStatus;
}

/**
 * One PRD's reader text and locator, built on first use (a list without
 * quotes never lexes the PRD), and kept for the last few PRD texts read, so
 * listing the comments of an unchanged PRD again finds nothing twice.
 */
export function anchorContext(prdContent: string) {
  const cached = recent.get(prdContent);
  if (cached) {
    recent.delete(prdContent);
    recent.set(prdContent, cached);
    return cached;
  }
  const context = buildContext(prdContent);
  recent.set(prdContent, context);
  if (recent.size > RECENT_MAX) recent.delete(recent.keys().next().value!);
  return context;
}

const RECENT_MAX = 4;
const recent = new Map<string, ReturnType<typeof buildContext>>();

function buildContext(prdContent: string) {
  let reader: ReaderText | undefined;
  let locate: ReturnType<typeof createLocator> | undefined;
  const text = () => (reader ??= readerText(prdContent));
  // Replies carry their thread's anchor: each passage is looked for once.
  const found = new Map<string, ReturnType<ReturnType<typeof createLocator>>>();
  const find = (anchor: TextAnchor) => {
    const key = JSON.stringify([anchor.quote, anchor.prefix ?? "", anchor.suffix ?? ""]);
    if (!found.has(key)) {
      if (found.size >= 5000) found.clear();
      found.set(key, (locate ??= createLocator(text().text))(anchor));
    }
    return found.get(key)!;
  };
  return {
    /** Where the passage is in the reader text, or null. */
    locate: find,
    /** The id of the section the passage is in (null: not found, or before the first heading). */
    sectionOf(anchor: TextAnchor) {
      const range = find(anchor);
      return range ? sectionAt(text(), range.start) : null;
    },
    hasSection: (id: string) => text().sections.some((s) => s.id === id),
  };
}
export type AnchorContext = ReturnType<typeof buildContext>;

/** The current PRD's context (an empty text when the project has no PRD yet). */
export async function loadAnchorContext(executor: Executor, projectId: string) {
  const prd = await executor.selectFrom("prds").select("content").where("projectId", "=", projectId).executeTakeFirst();
  return anchorContext(prd?.content ?? "");
}

/** A stored comment's anchor with its status now, or null when it has none. */
export function anchorView(
  context: AnchorContext,
  row: { quote: string | null; quotePrefix: string | null; quoteSuffix: string | null; section: string | null },
): AnchorView | null {
  if (row.quote === null) return null;
  const anchor = { quote: row.quote, prefix: row.quotePrefix, suffix: row.quoteSuffix };
  const status: AnchorStatus = context.locate(anchor) ? "anchored" : row.section !== null && context.hasSection(row.section) ? "section" : "lost";
  return { ...anchor, status };
}
