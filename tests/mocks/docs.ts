import { createHash } from "node:crypto";
import { http, HttpResponse } from "msw";
import { createOAuthKit, rid } from "./oauth-kit";

/**
 * Google as an msw stand-in: the OAuth 2.0 server (authorize URL check with
 * PKCE S256, a form-encoded token endpoint with the client in the body,
 * verifier checked against the challenge, refresh without rotation, revoke),
 * OpenID userinfo, and Drive's multipart upload, which answers like Drive
 * (401 with Google's error object for a bad token, 400 for a malformed
 * multipart body) and records the converted file.
 */

export const DOCS_CLIENT = { id: "docs-client-id.apps.googleusercontent.com", secret: "docs-client-secret" };

export interface DriveFile {
  id: string;
  name: string;
  mimeType: string;
  /** Content type and bytes of the media part. */
  mediaType: string;
  media: string;
}

const googleError = (status: number, message: string, reason: string, statusText: string) =>
  HttpResponse.json({ error: { code: status, message, errors: [{ message, domain: "global", reason }], status: statusText } }, { status });

/** The parts of a multipart/related body. */
export function multipartParts(body: string, contentType: string) {
  const boundary = /boundary=("?)([^";]+)\1/.exec(contentType)?.[2];
  if (!boundary) return null;
  const segments = body.split(`--${boundary}`);
  if (segments.at(-1)?.trim() !== "--") return null;
  return segments.slice(1, -1).map((seg) => {
    const [head = "", ...rest] = seg.replace(/^\r\n/, "").split("\r\n\r\n");
    const headers = Object.fromEntries(
      head
        .split("\r\n")
        .filter(Boolean)
        .map((l) => [l.split(":")[0]!.trim().toLowerCase(), l.slice(l.indexOf(":") + 1).trim()]),
    );
    return { headers, body: rest.join("\r\n\r\n").replace(/\r\n$/, "") };
  });
}

export function createDocsMock(
  options: { tokenUrl?: string; authUrl?: string; apiBase?: string; client?: { id: string; secret: string }; email?: string } = {},
) {
  const tokenUrl = options.tokenUrl ?? "https://oauth2.googleapis.com/token";
  const authUrl = options.authUrl ?? "https://accounts.google.com/o/oauth2/v2/auth";
  const apiBase = options.apiBase ?? "https://www.googleapis.com";
  const client = options.client ?? DOCS_CLIENT;
  const email = options.email ?? "pat.writer@gmail.example";
  const kit = createOAuthKit({ accessTtlSeconds: 3599, rotateRefresh: false });
  const files = new Map<string, DriveFile>();

  function authorize(authorizationUrl: string) {
    const url = new URL(authorizationUrl);
    const q = url.searchParams;
    if (url.origin + url.pathname !== authUrl) throw new Error(`unexpected authorize URL ${url.origin}${url.pathname}`);
    const scopes = (q.get("scope") ?? "").split(" ");
    if (
      q.get("client_id") !== client.id ||
      q.get("response_type") !== "code" ||
      !scopes.includes("https://www.googleapis.com/auth/drive.file") ||
      q.get("code_challenge_method") !== "S256" ||
      !q.get("code_challenge") ||
      q.get("access_type") !== "offline" ||
      !q.get("state")
    ) {
      throw new Error(`bad authorize parameters: ${q}`);
    }
    return { code: kit.newCode(q.get("redirect_uri")!, q.get("code_challenge")), state: q.get("state")!, redirectUri: q.get("redirect_uri")! };
  }

  const handlers = [
    http.post(tokenUrl, async ({ request }) => {
      const logged = await kit.log(request);
      const body = logged.body as Record<string, string>;
      if (body.client_id !== client.id || body.client_secret !== client.secret)
        return HttpResponse.json({ error: "invalid_client", error_description: "The OAuth client was not found." }, { status: 401 });
      if (body.grant_type === "authorization_code") {
        const redeemed = kit.redeemCode(body.code ?? "", body.redirect_uri);
        if (!redeemed) return HttpResponse.json({ error: "invalid_grant", error_description: "Bad Request" }, { status: 400 });
        const expected = createHash("sha256")
          .update(body.code_verifier ?? "")
          .digest("base64url");
        if (redeemed.challenge !== expected) return HttpResponse.json({ error: "invalid_grant", error_description: "Invalid code verifier." }, { status: 400 });
        const g = redeemed.grant;
        return HttpResponse.json({
          access_token: g.accessToken,
          expires_in: 3599,
          refresh_token: g.refreshToken,
          scope: "openid https://www.googleapis.com/auth/userinfo.email https://www.googleapis.com/auth/drive.file",
          token_type: "Bearer",
          id_token: `${rid("h")}.${rid("p")}.${rid("s")}`,
        });
      }
      if (body.grant_type === "refresh_token") {
        const g = kit.redeemRefresh(body.refresh_token ?? "");
        if (!g) return HttpResponse.json({ error: "invalid_grant", error_description: "Token has been expired or revoked." }, { status: 400 });
        return HttpResponse.json({
          access_token: g.accessToken,
          expires_in: 3599,
          scope: "https://www.googleapis.com/auth/drive.file openid",
          token_type: "Bearer",
        });
      }
      return HttpResponse.json({ error: "unsupported_grant_type", error_description: "Invalid grant_type" }, { status: 400 });
    }),
    http.post(new URL("/revoke", tokenUrl).toString(), async ({ request }) => {
      const logged = await kit.log(request);
      const ok = kit.revoke(String((logged.body as any)?.token ?? ""));
      return ok ? HttpResponse.json({}) : HttpResponse.json({ error: "invalid_token", error_description: "Token expired or revoked" }, { status: 400 });
    }),
    http.get(`${apiBase}/oauth2/v3/userinfo`, async ({ request }) => {
      await kit.log(request);
      if (!kit.bearer(request)) return HttpResponse.json({ error: "invalid_request", error_description: "Invalid Credentials" }, { status: 401 });
      return HttpResponse.json({ sub: "110248495921238986420", email, email_verified: true, picture: "https://lh3.googleusercontent.com/a/default-user" });
    }),
    http.post(`${apiBase}/upload/drive/v3/files`, async ({ request }) => {
      const logged = await kit.log(request);
      const injected = kit.takeFailure("POST", "/upload/drive/v3/files");
      if (injected) return injected;
      if (!kit.bearer(request)) {
        return googleError(
          401,
          "Request had invalid authentication credentials. Expected OAuth 2 access token, login cookie or other valid authentication credential.",
          "authError",
          "UNAUTHENTICATED",
        );
      }
      if (new URL(request.url).searchParams.get("uploadType") !== "multipart") return googleError(400, "Invalid uploadType", "invalid", "INVALID_ARGUMENT");
      const parts = multipartParts(String(logged.body), request.headers.get("Content-Type") ?? "");
      if (!parts || parts.length !== 2 || !parts[0]!.headers["content-type"]?.startsWith("application/json")) {
        return googleError(400, "Malformed multipart body.", "badContent", "INVALID_ARGUMENT");
      }
      let metadata: { name?: string; mimeType?: string };
      try {
        metadata = JSON.parse(parts[0]!.body);
      } catch {
        return googleError(400, "Invalid JSON payload received.", "parseError", "INVALID_ARGUMENT");
      }
      const id = rid("1", 16);
      const file: DriveFile = {
        id,
        name: metadata.name ?? "Untitled",
        mimeType: metadata.mimeType ?? parts[1]!.headers["content-type"] ?? "application/octet-stream",
        mediaType: parts[1]!.headers["content-type"] ?? "",
        media: parts[1]!.body,
      };
      files.set(id, file);
      return HttpResponse.json({
        kind: "drive#file",
        id,
        name: file.name,
        mimeType: file.mimeType,
        webViewLink: `https://docs.google.com/document/d/${id}/edit?usp=drivesdk`,
      });
    }),
  ];

  return { ...kit, handlers, files, email, client, tokenUrl, apiBase, authorize };
}
export type DocsMock = ReturnType<typeof createDocsMock>;
