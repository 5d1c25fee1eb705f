import { allContracts } from "~/http/api/contracts/index";
import { openapi } from "~/http/api/contracts/system";
import { operationOf } from "~/http/api/openapi.server";
import { contractProblems } from "~/http/api/response-check.server";
import { apiRouter } from "./build";

/**
 * The contract check of every API call the test client makes: the route the
 * call reached, its contract, and the response against that operation of the
 * generated OpenAPI document (app/http/api/response-check.server.ts). A response
 * the document does not describe fails the test that made it. Pages, HEAD and
 * OPTIONS, paths no contract serves (405s, the unknown-path 404) and
 * /api/openapi.json itself are not checked.
 */

const byRoute = new Map(allContracts.map((c) => [`${c.method} ${c.path}`, c]));

export function contractFor(method: string, pathname: string) {
  if (!pathname.startsWith("/api/") || method === "HEAD" || method === "OPTIONS") return undefined;
  const found = apiRouter().match(pathname, method);
  const c = found && byRoute.get(`${method} ${found.entry.pattern}`);
  return c && c !== openapi ? c : undefined;
}

/** Throws when the response is not one the contract of (method, url) declares. */
export async function assertResponseInContract(method: string, url: string, response: { status: number; headers: Headers; text: string }) {
  const c = contractFor(method.toUpperCase(), new URL(url, "http://localhost").pathname);
  if (!c) return;
  const problems = await contractProblems(c, response);
  if (!problems.length) return;
  const body = response.text.length > 600 ? `${response.text.slice(0, 600)}…` : response.text;
  throw new Error(
    `${c.method} ${c.path} (${String(operationOf(c).operationId)}) answered ${response.status} outside its contract:\n- ${problems.join("\n- ")}\nbody: ${body}`,
  );
}
