import { getPrd, savePrd } from "~/domain/prd/prd.server";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/prd";
import { ifMatchVersion, prdEtag } from "~/http/api/etag.server";
import { jsonResponse } from "~/http/api/respond.server";

const route = apiRoute(
  endpoint(c.getPrd, async ({ viewer, params, headers }) => {
    const prd = await getPrd(viewer, params.projectId);
    const etag = prdEtag(prd.versionId);
    if (etag) headers.set("ETag", etag);
    return { prd };
  }),
  endpoint(c.putPrd, async ({ actor, params, body, request, headers }) => {
    const { prd, created, merged } = await savePrd(actor, params.projectId, body, {
      mode: "put",
      expectedVersionId: ifMatchVersion(request),
    });
    const etag = prdEtag(prd.versionId);
    if (etag) headers.set("ETag", etag);
    return jsonResponse({ prd, ...(merged ? { merged } : {}) }, created ? 201 : 200, headers);
  }),
  endpoint(c.patchPrd, async ({ actor, params, body, request, headers }) => {
    const { prd, merged } = await savePrd(actor, params.projectId, body, { mode: "patch", expectedVersionId: ifMatchVersion(request) });
    const etag = prdEtag(prd.versionId);
    if (etag) headers.set("ETag", etag);
    return { prd, ...(merged ? { merged } : {}) };
  }),
);
export const loader = route.loader;
export const action = route.action;
