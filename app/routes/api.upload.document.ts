import { analyzeDocument, assertCanUploadDocument } from "~/domain/uploads/documents.server";
import { MAX_DOCUMENT_BYTES } from "~/domain/uploads/uploads.schema";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/uploads";
import { parseMultipart } from "~/http/api/multipart.server";

const route = apiRoute(
  endpoint(c.uploadDocument, async ({ actor, request }) => {
    // The quota first, so a caller who has none left never streams 10 MB.
    await assertCanUploadDocument(actor);
    const { files } = await parseMultipart(request, { maxFileBytes: MAX_DOCUMENT_BYTES, requiredFile: "file" });
    const part = files.file!;
    return analyzeDocument(actor, { filename: part.filename, data: part.data }, request.signal);
  }),
);
export const loader = route.loader;
export const action = route.action;
