import type { AnyExtension, JSONContent } from "@tiptap/core";
import { MarkdownManager } from "@tiptap/markdown";

/**
 * Markdown ⇄ editor document for PRDs, faithful to what the user wrote.
 *
 * Reading: each top-level block is read on its own and remembers its exact
 * source (with the blank lines after it) in the `md` attribute.
 * Writing: a block whose content still serializes the same as its source is
 * written back byte for byte; only blocks the user changed are serialized
 * afresh. So opening and saving a PRD changes nothing the user did not edit,
 * and an edit to one paragraph never reformats the rest of the document.
 *
 * Afresh-serialized blocks follow the normalisations listed in
 * docs/design/rich-editor.md (e.g. `-` bullets, `**` bold, padded tables).
 */

/** Only what would otherwise become HTML or an entity is escaped; a plain `&` or `<` stays as typed. */
function encodeText(text: string) {
  return text
    .replace(/\n[ \t]+/g, "\n")
    .replace(/&(?=#?\w+;)/g, "&amp;")
    .replace(/<(?=[A-Za-z/!?])/g, "&lt;")
    .replace(/([\\`*_[\]~])/g, "\\$1");
}

/** MarkdownManager, but text is escaped only where Markdown or HTML would misread it (see encodeText). */
function faithfulManager(extensions: AnyExtension[]) {
  const manager = new MarkdownManager({ extensions });
  const internals = manager as unknown as {
    codeTypes: Set<string>;
    encodeTextForMarkdown: (text: string, node: JSONContent, parentNode?: JSONContent) => string;
  };
  internals.encodeTextForMarkdown = (text, node, parentNode) => {
    const inCode =
      (parentNode?.type && internals.codeTypes.has(parentNode.type)) ||
      (node.marks ?? []).some((m) => internals.codeTypes.has(typeof m === "string" ? m : m.type));
    return inCode ? text : encodeText(text);
  };
  return manager;
}

type Token = { type: string; raw: string };

const withoutSource = (node: JSONContent): JSONContent => {
  if (!node.attrs || !("md" in node.attrs)) return node;
  const { md: _md, ...attrs } = node.attrs;
  return { ...node, attrs };
};

export class PrdMarkdown {
  readonly manager: MarkdownManager;
  private sourceForms = new Map<string, string | null>();

  constructor(extensions: AnyExtension[]) {
    this.manager = faithfulManager(extensions);
  }

  /** Markdown → editor document (JSON), each top-level block carrying its source. */
  parse(markdown: string): JSONContent {
    const tokens = this.manager.instance.lexer(markdown.replace(/\r\n?/g, "\n")) as unknown as Token[];
    const content: JSONContent[] = [];
    let last: JSONContent | null = null;
    for (const token of tokens) {
      if (token.type === "space" || token.type === "def") {
        // Blank lines (and reference definitions) belong to the block before them.
        if (last?.attrs?.md != null) last.attrs.md += token.raw;
        continue;
      }
      const nodes = this.manager.parse(token.raw.replace(/\s+$/, "")).content ?? [];
      last = null;
      if (nodes.length === 1) {
        last = { ...nodes[0]!, attrs: { ...nodes[0]!.attrs, md: token.raw } };
        content.push(last);
      } else content.push(...nodes);
    }
    return { type: "doc", content: content.length ? content : [{ type: "paragraph" }] };
  }

  /** Editor document (JSON) → Markdown, keeping the source of every block that still means the same. */
  serialize(doc: JSONContent): string {
    let out = "";
    let lastFromSource = false;
    let lastType = "";
    for (const node of doc.content ?? []) {
      const source = typeof node.attrs?.md === "string" ? node.attrs.md : null;
      const fresh = this.block(node);
      if (source !== null && this.sourceForm(source) === fresh) {
        if (out && !out.endsWith("\n")) out += "\n\n";
        out += source;
        lastFromSource = true;
        lastType = node.type ?? "";
      } else {
        if (!fresh.trim()) {
          // An empty paragraph is an editing artefact, not content.
          continue;
        }
        // A heading written straight above its text stays so (a paragraph needs no blank line after a heading).
        const tight = lastFromSource && lastType === "heading" && node.type === "paragraph" && /[^\n]\n$/.test(out);
        if (out && !tight) out = out.replace(/\n*$/, "\n\n");
        out += `${fresh}\n\n`;
        lastFromSource = false;
        lastType = node.type ?? "";
      }
    }
    if (!lastFromSource) out = out.replace(/\s+$/, "");
    return out && !out.endsWith("\n") ? `${out}\n` : out;
  }

  private block(node: JSONContent) {
    return this.manager.serialize({ type: "doc", content: [withoutSource(node)] }).replace(/\s+$/, "");
  }

  /** How a block's source serializes when read back; null when it is not exactly one block. */
  private sourceForm(source: string) {
    let form = this.sourceForms.get(source);
    if (form === undefined) {
      const nodes = this.manager.parse(source.replace(/\s+$/, "")).content ?? [];
      form = nodes.length === 1 ? this.block(nodes[0]!) : null;
      if (this.sourceForms.size > 2000) this.sourceForms.clear();
      this.sourceForms.set(source, form);
    }
    return form;
  }
}
