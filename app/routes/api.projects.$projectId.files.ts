import { assertCanUpload, listFiles, uploadFile } from "~/domain/files/files.server";
import { MAX_FILE_BYTES, uploadFieldsSchema } from "~/domain/files/files.schema";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/files";
import { parseMultipart } from "~/http/api/multipart.server";

const route = apiRoute(
  endpoint(c.listFiles, ({ actor, params, query }) => listFiles(actor, params.projectId, query)),
  endpoint(c.uploadFile, async ({ actor, params, request, headers }) => {
    // Access first, so a caller who may not upload never gets to stream 10 MB.
    await assertCanUpload(actor, params.projectId);
    const { files, fields } = await parseMultipart(request, { maxFileBytes: MAX_FILE_BYTES, requiredFile: "file" });
    const { folderId } = uploadFieldsSchema.parse(fields);
    const part = files.file!;
    const file = await uploadFile(actor, params.projectId, {
      filename: part.filename,
      contentType: part.contentType,
      data: part.data,
      folderId,
    });
    headers.set("Location", file.downloadUrl);
    return { file };
  }),
);
export const loader = route.loader;
export const action = route.action;
