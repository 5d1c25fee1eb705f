import { db } from "~/db.server";
import { brandingForOrg } from "../branding/branding.server";
import type { ExportDocument } from "./document";

/**
 * Builds the ExportDocument of a source: the organization's branding, the
 * Mermaid diagrams rendered, the images it references loaded.
 * (Scaffolding: diagrams and images are filled in by the rendering work.)
 */
export async function prepareDocument(source: { orgId: string; title: string; subtitle?: string | null; markdown: string }): Promise<ExportDocument> {
  const branding = await brandingForOrg(source.orgId, db);
  return {
    title: source.title,
    subtitle: source.subtitle ?? null,
    markdown: source.markdown,
    generatedAt: new Date(),
    branding: { primaryColor: branding.primaryColor, accentColor: branding.accentColor, companyName: branding.companyName || null, logo: null },
    diagrams: new Map(),
    images: new Map(),
  };
}
