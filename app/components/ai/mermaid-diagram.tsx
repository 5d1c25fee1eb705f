import { useEffect, useId, useState } from "react";
import { MERMAID_CONFIG, sanitizeMermaidSvg } from "./mermaid-safety";

/**
 * Draws Mermaid source as SVG in the browser (Mermaid and DOMPurify are loaded
 * on demand) with the settings of ./mermaid-safety.ts, and sanitizes the SVG
 * before it is put in the page; the error is the parser's first line.
 */
export function useMermaidSvg(source: string) {
  const id = useId().replace(/[^a-zA-Z0-9]/g, "");
  const [svg, setSvg] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    let cancelled = false;
    (async () => {
      try {
        const [mermaid, purify] = await Promise.all([import("mermaid").then((m) => m.default), import("dompurify").then((m) => m.default)]);
        mermaid.initialize(MERMAID_CONFIG);
        const { svg } = await mermaid.render(`mermaid-${id}`, source);
        const clean = sanitizeMermaidSvg(svg, purify);
        if (!clean) throw new Error("This diagram could not be drawn safely");
        if (!cancelled) {
          setSvg(clean);
          setError(null);
        }
      } catch (e) {
        if (!cancelled) setError(e instanceof Error ? e.message.split("\n")[0]! : "This diagram could not be drawn");
      }
    })();
    return () => {
      cancelled = true;
    };
  }, [id, source]);
  return { svg, error };
}

/**
 * A Mermaid diagram. The server renders the source (what a browser without
 * JavaScript shows); in the browser Mermaid (loaded on demand) draws it as
 * SVG, with the source kept one click away.
 */
export function MermaidDiagram({ source, title }: { source: string; title: string }) {
  const { svg, error } = useMermaidSvg(source);

  return (
    <figure className="mermaid-figure">
      {/* biome-ignore lint/security/noDangerouslySetInnerHtml: SVG from mermaid.render (strict, no HTML labels), sanitized by DOMPurify's SVG profile. */}
      {svg ? <div className="diagram" role="img" aria-label={title} dangerouslySetInnerHTML={{ __html: svg }} /> : null}
      {error ? (
        <p className="alert alert-warning" role="status">
          Mermaid could not draw this diagram ({error}). The source is below.
        </p>
      ) : null}
      {svg ? (
        <details>
          <summary>Mermaid source</summary>
          <pre>
            <code>{source}</code>
          </pre>
        </details>
      ) : (
        <pre data-testid="mermaid-source">
          <code>{source}</code>
        </pre>
      )}
      <figcaption className="muted">{title}</figcaption>
    </figure>
  );
}
