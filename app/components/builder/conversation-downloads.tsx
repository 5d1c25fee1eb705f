import { CHAT_EXPORT_FORMATS } from "~/domain/builder/builder.schema";

const LABELS: Record<(typeof CHAT_EXPORT_FORMATS)[number], string> = { pdf: "PDF", csv: "CSV", json: "JSON" };

/**
 * Downloads of the builder conversation in every format of
 * GET /api/projects/{id}/chat-export; the browser sends the session cookie,
 * so plain links work with JavaScript off.
 */
export function ConversationDownloads({ projectId }: { projectId: string }) {
  return (
    <div className="inline conversation-downloads" role="group" aria-label="Download the conversation">
      {CHAT_EXPORT_FORMATS.map((format) => (
        <a key={format} className="btn btn-secondary btn-sm" href={`/api/projects/${projectId}/chat-export?format=${format}`} download>
          Download conversation ({LABELS[format]})
        </a>
      ))}
    </div>
  );
}
