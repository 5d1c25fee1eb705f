import { assertCanTranscribe, transcribeAudio } from "~/domain/uploads/transcribe.server";
import { MAX_AUDIO_BYTES } from "~/domain/uploads/uploads.schema";
import { apiRoute, endpoint } from "~/http/api/api.server";
import * as c from "~/http/api/contracts/uploads";
import { parseMultipart } from "~/http/api/multipart.server";

const route = apiRoute(
  endpoint(c.transcribe, async ({ actor, request }) => {
    // Quota and key first, so a request that cannot be served never streams 25 MB.
    await assertCanTranscribe(actor);
    const { files } = await parseMultipart(request, { maxFileBytes: MAX_AUDIO_BYTES, requiredFile: "file" });
    return transcribeAudio(actor, { data: files.file!.data }, request.signal);
  }),
);
export const loader = route.loader;
export const action = route.action;
