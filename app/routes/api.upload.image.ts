import { uploadImage } from "~/domain/uploads/images.server";
import { imageFieldsSchema, MAX_IMAGE_BYTES } from "~/domain/uploads/uploads.schema";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/uploads";
import { parseMultipart } from "~/http/api/multipart.server";

const route = apiRoute(
  endpoint(c.uploadImage, async ({ actor, request, headers }) => {
    const { files, fields } = await parseMultipart(request, { maxFileBytes: MAX_IMAGE_BYTES, requiredFile: "file" });
    const { projectId } = imageFieldsSchema.parse(fields);
    const part = files.file!;
    const image = await uploadImage(actor, projectId, { filename: part.filename, data: part.data });
    headers.set("Location", image.url);
    return image;
  }),
);
export const loader = route.loader;
export const action = route.action;
