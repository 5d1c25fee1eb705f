import type { ApiResult } from "./client";

/** The visible text of an HTML page: scripts and tags dropped, entities decoded, whitespace collapsed. */
export const pageText = (res: ApiResult) =>
  res.text
    .replace(/<script[\s\S]*?<\/script>|<!-- -->/g, "")
    .replace(/<[^>]+>/g, " ")
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, "&")
    .replace(/\s+/g, " ");
