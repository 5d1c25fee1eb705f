import crypto from "node:crypto";
import { form, providerFetch } from "../http.server";
import type { ProviderSettings } from "../settings.server";
import type { Authorized, OAuthClient } from "./types";
import { tokenSet } from "./token-set";

/**
 * `docs` = Google: OAuth 2.0 with PKCE (S256) at DOCS_AUTH_URL, offline
 * access for a refresh token, client credentials in the form body of
 * DOCS_TOKEN_URL. The account is read from the OpenID userinfo endpoint.
 * A document is created by a Drive multipart upload of HTML with the Google
 * Docs MIME type, which Drive converts into a Google Doc.
 */
const SERVICE = "Google";
export const DOCS_SCOPES = ["openid", "email", "https://www.googleapis.com/auth/drive.file"];
export const GOOGLE_DOC_MIME = "application/vnd.google-apps.document";

const tokens = (body: any) => tokenSet(SERVICE, body);

const postForm = (url: string, values: Record<string, string>) => {
  const f = form(values);
  return providerFetch(SERVICE, url, { method: "POST", headers: { "Content-Type": f.contentType, Accept: "application/json" }, body: f.body });
};

export const docsOAuth: OAuthClient = {
  service: SERVICE,
  usesPkce: true,
  authorizationUrl(s, { redirectUri, state, codeChallenge }) {
    const url = new URL(s.authUrl);
    url.search = new URLSearchParams({
      client_id: s.clientId,
      redirect_uri: redirectUri,
      response_type: "code",
      scope: DOCS_SCOPES.join(" "),
      access_type: "offline",
      prompt: "consent",
      include_granted_scopes: "true",
      state,
      code_challenge: codeChallenge ?? "",
      code_challenge_method: "S256",
    }).toString();
    return url.toString();
  },
  async exchangeCode(s, { code, redirectUri, codeVerifier }) {
    const set = tokens(
      await postForm(s.tokenUrl, {
        code,
        client_id: s.clientId,
        client_secret: s.clientSecret,
        redirect_uri: redirectUri,
        grant_type: "authorization_code",
        code_verifier: codeVerifier ?? "",
      }),
    );
    const me = await providerFetch(SERVICE, `${s.apiUrl}/oauth2/v3/userinfo`, {
      headers: { Authorization: `Bearer ${set.accessToken}`, Accept: "application/json" },
    });
    const email = typeof me?.email === "string" ? me.email : null;
    return { ...set, workspaceId: typeof me?.sub === "string" ? me.sub : null, workspaceName: email ?? "Google account", accountEmail: email };
  },
  async refresh(s, refreshToken) {
    return tokens(
      await postForm(s.tokenUrl, { client_id: s.clientId, client_secret: s.clientSecret, refresh_token: refreshToken, grant_type: "refresh_token" }),
    );
  },
  /** Revoking the refresh token ends the whole grant (its access tokens too). */
  async revoke(s, { accessToken, refreshToken }) {
    const token = refreshToken ?? accessToken;
    if (!token) return;
    await postForm(new URL("/revoke", s.tokenUrl).toString(), { token });
  },
};

/** PKCE S256: the challenge of a verifier. */
export const pkceChallenge = (verifier: string) => crypto.createHash("sha256").update(verifier).digest("base64url");

/** Uploads HTML as a new Google Doc (Drive converts it); returns its id. */
export async function createGoogleDoc(
  s: ProviderSettings,
  call: Authorized,
  doc: { name: string; html: Uint8Array },
): Promise<{ documentId: string; documentUrl: string }> {
  const boundary = `prd-studio-${crypto.randomBytes(12).toString("hex")}`;
  const metadata = JSON.stringify({ name: doc.name, mimeType: GOOGLE_DOC_MIME });
  const body = Buffer.concat([
    Buffer.from(
      `--${boundary}\r\nContent-Type: application/json; charset=UTF-8\r\n\r\n${metadata}\r\n--${boundary}\r\nContent-Type: text/html; charset=UTF-8\r\n\r\n`,
    ),
    Buffer.from(doc.html),
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const created = await call((token) =>
    providerFetch(SERVICE, `${s.apiUrl}/upload/drive/v3/files?uploadType=multipart&fields=id,name,mimeType,webViewLink`, {
      method: "POST",
      headers: { Authorization: `Bearer ${token}`, "Content-Type": `multipart/related; boundary=${boundary}`, Accept: "application/json" },
      body,
    }),
  );
  const documentId = String(created.id);
  return { documentId, documentUrl: `https://docs.google.com/document/d/${encodeURIComponent(documentId)}/edit` };
}
