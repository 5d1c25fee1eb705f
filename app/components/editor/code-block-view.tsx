import CodeBlock from "@tiptap/extension-code-block";
import { NodeViewContent, type NodeViewProps, NodeViewWrapper, ReactNodeViewRenderer } from "@tiptap/react";
import { useEffect, useState } from "react";
import { useMermaidSvg } from "~/components/ai/mermaid-diagram";

/** A code block; a `mermaid` block shows its diagram live beside the source. */
function CodeBlockView({ node }: NodeViewProps) {
  const mermaid = node.attrs.language === "mermaid";
  return (
    <NodeViewWrapper className={mermaid ? "code-block code-block-mermaid" : "code-block"}>
      <pre>
        <NodeViewContent<"code"> as="code" />
      </pre>
      {mermaid ? <MermaidPreview source={node.textContent} /> : null}
    </NodeViewWrapper>
  );
}

function MermaidPreview({ source }: { source: string }) {
  const [settled, setSettled] = useState(source);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(source), 400);
    return () => clearTimeout(timer);
  }, [source]);
  const { svg, error } = useMermaidSvg(settled);
  return (
    <div className="mermaid-preview" contentEditable={false} aria-live="polite">
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: SVG from useMermaidSvg (strict, no HTML labels), sanitized by DOMPurify's SVG profile. */}
      {svg ? <div className="diagram" role="img" aria-label="Diagram preview" dangerouslySetInnerHTML={{ __html: svg }} /> : null}
      {error ? <p className="muted">Preview paused: {error}</p> : null}
    </div>
  );
}

export const CodeBlockWithPreview = CodeBlock.extend({
  addNodeView() {
    return ReactNodeViewRenderer(CodeBlockView);
  },
});
