import * as Y from "yjs";
import { validationError } from "../errors";
import { countItems, LIVE_MAX_UPDATE_ITEMS, liveMaxDocItems, tooLarge, updateItems } from "./limits.server";
import { LIVE_FRAGMENT } from "./live.schema";

/**
 * What a client's Yjs update may do to the live document: only the editor's
 * fragment (`default`) is theirs. The map `live` beside it (the epoch) is
 * the server's, and no other root type may exist: a map of another name
 * would be relayed, stored and sent in every `sync` without ever reaching a
 * PRD version. Items are bounded per update and per document, as bytes are,
 * because many tiny items take far more heap than their bytes.
 */

/** Decodes a client's update (400 when Yjs cannot read it) and refuses one with too many items (413). */
export function checkUpdateShape(update: Uint8Array) {
  let decoded: ReturnType<typeof Y.decodeUpdate>;
  try {
    decoded = Y.decodeUpdate(update);
  } catch {
    throw validationError("update", "update is not a Yjs update");
  }
  if (updateItems(decoded) > LIVE_MAX_UPDATE_ITEMS) throw tooLarge("A live update", LIVE_MAX_UPDATE_ITEMS, "items");
}

/** The name of the root type that holds `type` (walking up its parents). */
function rootName(doc: Y.Doc, type: Y.AbstractType<Y.YEvent<any>>): string | null {
  let current = type;
  while (current._item?.parent) current = current._item.parent as Y.AbstractType<Y.YEvent<any>>;
  for (const [name, root] of doc.share) if (root === current) return name;
  return null;
}

export type UpdateRefusal = { kind: "unapplicable" | "foreign" | "pending" } | { kind: "items"; items: number };

/**
 * Applies a client's update to `doc` and says why it must be refused, if it
 * must: it does not apply, it changed a root type other than the editor's
 * fragment (or made a new one), it needs changes the document does not have
 * (Yjs would hold it pending, unseen and unbounded), or the document now
 * holds more than LIVE_MAX_DOC_ITEMS items (configuration). A refused update may have
 * changed `doc`: the caller reads the stored document back.
 */
export function applyClientUpdate(doc: Y.Doc, update: Uint8Array): UpdateRefusal | null {
  const roots = new Set(doc.share.keys());
  let foreign = false;
  const watch = (transaction: Y.Transaction) => {
    for (const type of transaction.changed.keys()) if (rootName(doc, type) !== LIVE_FRAGMENT) foreign = true;
  };
  doc.on("afterTransaction", watch);
  try {
    Y.applyUpdate(doc, update, "client");
  } catch {
    return { kind: "unapplicable" };
  } finally {
    doc.off("afterTransaction", watch);
  }
  if (foreign || [...doc.share.keys()].some((name) => !roots.has(name))) return { kind: "foreign" };
  if (doc.store.pendingStructs || doc.store.pendingDs) return { kind: "pending" };
  const items = countItems(doc);
  if (items > liveMaxDocItems()) return { kind: "items", items };
  return null;
}

/** The error a refusal answers with. */
export function refusalError(refusal: UpdateRefusal) {
  switch (refusal.kind) {
    case "unapplicable":
      return validationError("update", "update does not apply to this document");
    case "foreign":
      return validationError("update", `update changes something other than the editor's document (the Yjs fragment "${LIVE_FRAGMENT}")`);
    case "pending":
      return validationError("update", "update depends on changes this document does not have; sync again (reopen the stream) and resend");
    case "items":
      return tooLarge("The live document", liveMaxDocItems(), "items");
  }
}
