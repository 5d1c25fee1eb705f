import type { ExportDocument } from "../document";

/** Scaffolding: replaced by the DOCX writer. */
export async function renderDocx(_doc: ExportDocument): Promise<Uint8Array> {
  throw new Error("DOCX export is not built yet");
}
