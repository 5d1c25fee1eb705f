import { MAX_LOGO_BYTES } from "~/domain/branding/branding.schema";
import { uploadLogo } from "~/domain/branding/branding.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/branding";
import { parseMultipart } from "~/http/api/multipart.server";

const route = apiRoute(
  endpoint(c.uploadLogo, async ({ actor, request }) => {
    const { files } = await parseMultipart(request, { maxFileBytes: MAX_LOGO_BYTES, requiredFile: "file" });
    return uploadLogo(actor, files.file!.data);
  }),
);
export const loader = route.loader;
export const action = route.action;
