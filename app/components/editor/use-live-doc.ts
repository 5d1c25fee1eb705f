import { useEffect, useMemo, useState } from "react";
import * as Y from "yjs";
import { LiveProvider, type LiveState } from "./live-provider";

/**
 * One live document per mount: a Y.Doc fed by the server. When the server
 * resets the document (it was repaired from the last good version), a fresh
 * Y.Doc is made from the new state, so no stale history merges back in.
 */
export function useLiveDoc(projectId: string, mode: () => "viewing" | "editing") {
  const [reset, setReset] = useState<{ generation: number; state: Uint8Array | null }>({ generation: 0, state: null });
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new document per project and per reset; `mode` is read lazily.
  const provider = useMemo(() => {
    if (typeof window === "undefined") return null;
    const doc = new Y.Doc();
    if (reset.state) Y.applyUpdate(doc, reset.state);
    return new LiveProvider(projectId, doc, { onReset: (state) => setReset((r) => ({ generation: r.generation + 1, state })) }, mode);
  }, [projectId, reset]);
  const [state, setState] = useState<LiveState | null>(null);
  useEffect(() => {
    if (!provider) return;
    const unsubscribe = provider.subscribe(setState);
    provider.connect();
    return () => {
      unsubscribe();
      provider.destroy();
    };
  }, [provider]);
  return { provider, state, generation: reset.generation };
}
