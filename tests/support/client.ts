import { requestArrived } from "~/utils/request-epoch";
import { remixHandler } from "./build";
import { assertResponseInContract } from "./contract-check";

export const ORIGIN = "http://localhost:3000";

export interface CallOptions {
  json?: unknown;
  body?: BodyInit;
  headers?: Record<string, string>;
  /** Bearer API key. */
  key?: string;
  ip?: string;
  /** Send the cookie jar (default true). */
  cookies?: boolean;
}

export interface ApiResult<T = any> {
  status: number;
  headers: Headers;
  body: T;
  text: string;
}

/**
 * An HTTP client that calls the Remix handler in-process, with a cookie jar
 * like a browser (same-origin headers on writes, as browsers send them).
 */
export class TestClient {
  jar = new Map<string, string>();
  constructor(public ip = "10.0.0.1") {}

  async call<T = any>(method: string, path: string, options: CallOptions = {}): Promise<ApiResult<T>> {
    const headers = new Headers(options.headers);
    if (options.json !== undefined) headers.set("Content-Type", "application/json");
    if (options.key) headers.set("Authorization", `Bearer ${options.key}`);
    if (options.cookies !== false && this.jar.size) {
      headers.set("Cookie", [...this.jar].map(([k, v]) => `${k}=${v}`).join("; "));
    }
    if (method !== "GET" && !headers.has("Origin") && !options.key) headers.set("Origin", ORIGIN);
    // As a browser does; Remix compares it with Origin on form posts.
    if (!headers.has("Host")) headers.set("Host", new URL(ORIGIN).host);
    const request = new Request(`${ORIGIN}${path}`, {
      method,
      headers,
      body: options.json !== undefined ? JSON.stringify(options.json) : options.body,
    });
    // As server.ts does for every request (the data-version reuse depends on it).
    requestArrived();
    const response = await remixHandler()(request, { ip: options.ip ?? this.ip });
    for (const cookie of response.headers.getSetCookie()) {
      const [pair] = cookie.split(";");
      const [name, ...rest] = pair!.split("=");
      const value = rest.join("=");
      if (!value || /Max-Age=0|Expires=Thu, 01 Jan 1970/i.test(cookie)) this.jar.delete(name!.trim());
      else this.jar.set(name!.trim(), value);
    }
    const text = await response.text();
    // Every API answer must be one the OpenAPI document declares (tests/support/contract-check.ts).
    await assertResponseInContract(method, path, { status: response.status, headers: response.headers, text });
    let body: any = text;
    if ((response.headers.get("Content-Type") ?? "").includes("json") && text) body = JSON.parse(text);
    return { status: response.status, headers: response.headers, body, text };
  }

  get = <T = any>(path: string, o?: CallOptions) => this.call<T>("GET", path, o);
  post = <T = any>(path: string, json?: unknown, o?: CallOptions) => this.call<T>("POST", path, { ...o, json: json ?? {} });
  patch = <T = any>(path: string, json?: unknown, o?: CallOptions) => this.call<T>("PATCH", path, { ...o, json: json ?? {} });
  delete = <T = any>(path: string, o?: CallOptions) => this.call<T>("DELETE", path, o);
}

let counter = 0;
export const uniqueEmail = (prefix = "user") => `${prefix}${Date.now().toString(36)}${counter++}@example.com`;
export const GOOD_PASSWORD = "Correct-Horse-9";

/** Registers a new user on a fresh client (own IP, so auth rate limits do not collide). */
export async function signedUpClient(overrides: Partial<{ name: string; email: string; password: string }> = {}) {
  const client = new TestClient(`10.1.${counter % 250}.${++counter % 250}`);
  const email = overrides.email ?? uniqueEmail();
  const res = await client.post("/api/auth/register", {
    name: overrides.name ?? "Test User",
    email,
    password: overrides.password ?? GOOD_PASSWORD,
  });
  if (res.status !== 201) throw new Error(`register failed: ${res.status} ${res.text}`);
  return { client, email, user: res.body.user, organization: res.body.organization };
}
