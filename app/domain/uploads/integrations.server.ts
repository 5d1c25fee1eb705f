import type { Actor } from "../actor";

/**
 * Connection state of the workspace integrations (GET
 * /api/integrations/status). The OAuth flows for the notes and wiki
 * integrations arrive with the exports issue; until then nothing can be
 * connected, so every integration reports as disconnected.
 */
export const INTEGRATIONS = ["notes", "wiki"] as const;
export type IntegrationName = (typeof INTEGRATIONS)[number];

export interface IntegrationStatus {
  connected: boolean;
  workspaceName: string | null;
  connectedAt: string | null;
}

export async function integrationsStatus(_actor: Actor): Promise<{ integrations: Record<IntegrationName, IntegrationStatus> }> {
  const disconnected = (): IntegrationStatus => ({ connected: false, workspaceName: null, connectedAt: null });
  return { integrations: { notes: disconnected(), wiki: disconnected() } };
}
