import { AppError } from "~/domain/errors";
import { API_VERSION, errorResponse } from "~/http/api/respond.server";

/** Any /api path no route claims: 404 in the envelope. */
function notFound({ request }: { request: Request }) {
  const path = new URL(request.url).pathname;
  return errorResponse(new AppError("NOT_FOUND", 404, `No API endpoint at ${request.method} ${path}`), {
    "API-Version": API_VERSION,
  });
}
export const loader = notFound;
export const action = notFound;
