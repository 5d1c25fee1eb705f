import fs from "node:fs";
import { describe, expect, it } from "vitest";
import * as Y from "yjs";
import { applyNode, jsonToMarkdown, markdownToNode, readLiveDoc, yDocFromMarkdown } from "~/domain/live/document.server";
import { mergeKeepingLive } from "~/domain/live/reconcile.server";

/** The live document as Yjs, ProseMirror and Markdown (app/domain/live/document.server.ts, reconcile.server.ts). */

const PRD = fs.readFileSync("tests/fixtures/calibration/02-b2b-invoice-approvals.md", "utf8");

function markdown(doc: Y.Doc) {
  const read = readLiveDoc(doc);
  if (!read.ok) throw new Error(read.reason);
  return jsonToMarkdown(read.json);
}

describe("the live document", () => {
  it("reads a PRD into the editor's fragment and back, byte for byte", () => {
    const doc = yDocFromMarkdown(PRD);
    expect(doc.getXmlFragment("default").length).toBeGreaterThan(10);
    expect(markdown(doc)).toBe(PRD);
  });

  it("finds what no editor could have written: text among blocks, unknown nodes, embeds", () => {
    const cases: ((f: Y.XmlFragment) => void)[] = [
      (f) => f.insert(0, [new Y.XmlText("loose")]),
      (f) => f.insert(0, [new Y.XmlElement("script")]),
      (f) => {
        const p = new Y.XmlElement("paragraph");
        p.insert(0, [new Y.XmlElement("heading")]);
        f.insert(0, [p]);
      },
      (f) => {
        const t = new Y.XmlText();
        t.insertEmbed(0, { evil: true });
        const p = new Y.XmlElement("paragraph");
        p.insert(0, [t]);
        f.insert(0, [p]);
      },
      (f) => {
        const t = new Y.XmlText();
        t.insert(0, "marked", { blink: {} });
        const p = new Y.XmlElement("paragraph");
        p.insert(0, [t]);
        f.insert(0, [p]);
      },
    ];
    for (const [i, hostile] of cases.entries()) {
      const doc = yDocFromMarkdown(PRD);
      hostile(doc.getXmlFragment("default"));
      expect(readLiveDoc(doc).ok, `case ${i}`).toBe(false);
    }
  });

  it("applies a saved PRD as a diff: untouched blocks keep their Yjs items, and the update brings another copy along", () => {
    const server = yDocFromMarkdown(PRD);
    const client = new Y.Doc();
    Y.applyUpdate(client, Y.encodeStateAsUpdate(server));
    const firstBefore = server.getXmlFragment("default").get(0);
    const changed = PRD.replace("## Problem Statement", "## The problem");
    const update = applyNode(server, markdownToNode(changed));
    expect(update).not.toBeNull();
    expect(server.getXmlFragment("default").get(0)).toBe(firstBefore);
    Y.applyUpdate(client, update!);
    expect(markdown(client)).toBe(changed);
    expect(applyNode(server, markdownToNode(changed))).toBeNull();
    expect(update!.byteLength).toBeLessThan(Y.encodeStateAsUpdate(server).byteLength / 4);
  });
});

describe("mergeKeepingLive", () => {
  const base = ["# Title", "", "Alpha.", "", "Beta.", "", "Gamma.", ""].join("\n");
  it("keeps both sides' changes to different lines", () => {
    expect(mergeKeepingLive(base, base.replace("Alpha.", "Alpha live."), base.replace("Gamma.", "Gamma saved."))).toBe(
      base.replace("Alpha.", "Alpha live.").replace("Gamma.", "Gamma saved."),
    );
  });
  it("lets the live text win where both changed the same lines", () => {
    expect(mergeKeepingLive(base, base.replace("Beta.", "Beta live."), base.replace("Beta.", "Beta saved."))).toBe(base.replace("Beta.", "Beta live."));
  });
});
