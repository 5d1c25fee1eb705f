import { type PDFDocument, PDFHexString, PDFName, type PDFPage, type PDFRef } from "pdf-lib";
import type { LinkArea } from "./canvas";
import { num } from "./encoder.server";

/** Link annotations (web links, contents → headings) and the bookmark outline of the headings. */

export interface Target {
  page: PDFRef;
  y: number;
}

const asciiHex = (text: string) => PDFHexString.of(Buffer.from(text, "latin1").toString("hex"));

function safeUri(url: string) {
  try {
    return encodeURI(decodeURI(url));
  } catch {
    return encodeURI(url);
  }
}

export function addLinks(pdf: PDFDocument, page: PDFPage, links: LinkArea[], resolve: (link: LinkArea) => Target | undefined) {
  const { context } = pdf;
  for (const link of links) {
    const rect = link.rect.map((v) => Number(num(v)));
    let action: Record<string, unknown>;
    if (link.url) {
      action = { A: context.obj({ Type: "Action", S: "URI", URI: asciiHex(safeUri(link.url)) }) };
    } else {
      const target = resolve(link);
      if (!target) continue;
      action = { Dest: context.obj([target.page, "XYZ", null, Number(num(target.y + 6)), null]) };
    }
    const annot = context.obj({ Type: "Annot", Subtype: "Link", Rect: rect, Border: [0, 0, 0], ...action } as never);
    page.node.addAnnot(context.register(annot));
  }
}

interface Node {
  level: number;
  title: string;
  target: Target;
  ref: PDFRef;
  children: Node[];
}

export function addOutline(pdf: PDFDocument, entries: { level: number; title: string; target: Target }[]) {
  if (entries.length === 0) return;
  const { context } = pdf;
  const rootRef = context.nextRef();
  const root: Node = { level: 0, title: "", target: entries[0]!.target, ref: rootRef, children: [] };
  const stack: Node[] = [root];
  for (const entry of entries) {
    const node: Node = { ...entry, ref: context.nextRef(), children: [] };
    while (stack.length > 1 && stack[stack.length - 1]!.level >= entry.level) stack.pop();
    stack[stack.length - 1]!.children.push(node);
    stack.push(node);
  }
  const write = (parent: Node) => {
    parent.children.forEach((node, i) => {
      const dict: Record<string, unknown> = {
        Title: PDFHexString.fromText(node.title),
        Parent: parent.ref,
        Dest: [node.target.page, "XYZ", null, Number(num(node.target.y + 6)), null],
      };
      if (i > 0) dict.Prev = parent.children[i - 1]!.ref;
      if (i < parent.children.length - 1) dict.Next = parent.children[i + 1]!.ref;
      if (node.children.length > 0) {
        dict.First = node.children[0]!.ref;
        dict.Last = node.children[node.children.length - 1]!.ref;
        // Negative: sub-sections start collapsed.
        dict.Count = -node.children.length;
      }
      context.assign(node.ref, context.obj(dict as never));
      write(node);
    });
  };
  write(root);
  context.assign(
    rootRef,
    context.obj({ Type: "Outlines", First: root.children[0]!.ref, Last: root.children[root.children.length - 1]!.ref, Count: root.children.length }),
  );
  pdf.catalog.set(PDFName.of("Outlines"), rootRef);
}
