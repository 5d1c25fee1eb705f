import { randomUUID } from "node:crypto";
import { getSchema, type JSONContent } from "@tiptap/core";
import { Node, type Schema } from "@tiptap/pm/model";
import { prosemirrorJSONToYXmlFragment, updateYFragment, yXmlFragmentToProsemirrorJSON } from "@tiptap/y-tiptap";
import * as Y from "yjs";
import { prdExtensions } from "~/editor/extensions";
import { PrdMarkdown } from "~/editor/markdown";
import { LIVE_FRAGMENT } from "./live.schema";

/**
 * The live document as Yjs, ProseMirror and Markdown: the same document
 * model as the browser's editor (`prdExtensions({ collaborative: true })`)
 * and the Markdown converter that keeps untouched blocks byte for byte.
 * Everything here is synchronous; the callers split long work across turns
 * of the event loop (docs/design/live-editing.md, "Event loop").
 */

let model: { schema: Schema; markdown: PrdMarkdown } | undefined;
function documentModel() {
  if (!model) {
    const extensions = prdExtensions({ collaborative: true });
    model = { schema: getSchema(extensions), markdown: new PrdMarkdown(extensions) };
  }
  return model;
}

/** The PRD's Markdown as a ProseMirror document of the editor's schema (throws if the converter makes an invalid one). */
export function markdownToNode(markdown: string): Node {
  const { schema, markdown: converter } = documentModel();
  const node = Node.fromJSON(schema, converter.parse(markdown));
  node.check();
  return node;
}

/** The PRD's Markdown as the editor's JSON, each top-level block with its source (the first half of a seed). */
export function markdownToJson(markdown: string): JSONContent {
  return documentModel().markdown.parse(markdown);
}

/** The Yjs map beside the fragment where the server keeps the document's identity (`epoch`). */
const META = "live";

/** A new live document holding `json` in the editor's fragment, with a new epoch. */
export function yDocFromJson(json: JSONContent): Y.Doc {
  const doc = new Y.Doc();
  const fragment = doc.getXmlFragment(LIVE_FRAGMENT);
  doc.transact(() => {
    prosemirrorJSONToYXmlFragment(documentModel().schema, json, fragment);
    doc.getMap(META).set("epoch", randomUUID());
  });
  return doc;
}

/**
 * The document's identity: set when it is seeded or reset, never by an edit.
 * A browser that reconnects to a document with another epoch (it missed a
 * reset) must replace its document rather than merge into it, or it would
 * hold both.
 */
export function epochOf(doc: Y.Doc): string {
  const epoch = doc.getMap(META).get("epoch");
  return typeof epoch === "string" ? epoch : "";
}

/** A new live document holding `markdown` in the editor's fragment. */
export function yDocFromMarkdown(markdown: string): Y.Doc {
  return yDocFromJson(markdownToJson(markdown));
}

/** An empty live document whose fragment exists (so updates naming it integrate as an XmlFragment). */
export function emptyYDoc(): Y.Doc {
  const doc = new Y.Doc();
  doc.getXmlFragment(LIVE_FRAGMENT);
  doc.getMap(META);
  return doc;
}

export type LiveRead = { ok: true; json: JSONContent } | { ok: false; reason: string };

/**
 * The live document as ProseMirror JSON, if it is a valid document of the
 * editor's schema. Any Yjs update can reach the server, so the fragment may
 * hold what no editor would write: unknown nodes or marks, text where blocks
 * belong, a block where text belongs, embeds, other Yjs types.
 */
export function readLiveDoc(doc: Y.Doc): LiveRead {
  try {
    const json = yXmlFragmentToProsemirrorJSON(doc.getXmlFragment(LIVE_FRAGMENT)) as JSONContent;
    Node.fromJSON(documentModel().schema, json).check();
    return { ok: true, json };
  } catch (error) {
    return { ok: false, reason: error instanceof Error ? error.message : String(error) };
  }
}

/** A valid document's JSON as the PRD's Markdown (untouched blocks byte for byte). */
export function jsonToMarkdown(json: JSONContent): string {
  return documentModel().markdown.serialize(json);
}

/**
 * Brings the live document in line with `node` by a diff (updateYFragment):
 * blocks that did not change keep their Yjs items, so editors' cursors and
 * concurrent edits elsewhere survive. Returns the Yjs update it made (null
 * when nothing changed).
 */
export function applyNode(doc: Y.Doc, node: Node): Uint8Array | null {
  let update: Uint8Array | null = null;
  const capture = (u: Uint8Array) => {
    update = update ? Y.mergeUpdates([update, u]) : u;
  };
  doc.on("update", capture);
  try {
    doc.transact(() => updateYFragment(doc, doc.getXmlFragment(LIVE_FRAGMENT), node, { mapping: new Map(), isOMark: new Map() }), "server");
  } finally {
    doc.off("update", capture);
  }
  return update;
}
