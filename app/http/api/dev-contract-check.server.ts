import { logger } from "~/utils/log.server";
import type { Endpoint } from "./api.server";
import type { Contract } from "./contract";
import { requestIdOf } from "../request-id.server";

/**
 * Development's contract check: every answer of an API endpoint is compared
 * with its operation in /api/openapi.json (./response-check.server.ts, the
 * same check the test client makes) and a mismatch is logged as one warning.
 * The response itself is never changed or delayed. On when CONTRACT_CHECK=1,
 * or when NODE_ENV is development (the default of `npm run dev`) and
 * CONTRACT_CHECK is not 0.
 */
export function contractCheckOn(env: Record<string, string | undefined> = process.env) {
  const flag = env.CONTRACT_CHECK?.trim();
  if (flag) return flag === "1" || flag === "true";
  return (env.NODE_ENV ?? "development") === "development";
}

const isJson = (type: string | null) => /^application\/([\w.+-]+\+)?json\b/i.test(type ?? "");

/**
 * A copy of the response to check, taken before anyone reads the original:
 * only JSON is copied (streams and files are checked by status, type and
 * headers). A JSON response's copy is cheap: it shares the prepared text.
 */
function copyToCheck(response: Response) {
  const bodiless = response.status === 204 || response.status === 304;
  return isJson(response.headers.get("Content-Type")) && !bodiless && !response.bodyUsed ? response.clone() : undefined;
}

/** Checks one live response and logs what does not match; resolves when done. Reads only `copy`, if any. */
export async function reportContractMismatch(contract: Contract, request: Request, response: Response, copy = copyToCheck(response)) {
  try {
    const { contractProblems } = await import("./response-check.server");
    const text = copy ? await copy.text() : undefined;
    const problems = await contractProblems(contract, { status: response.status, headers: response.headers, text });
    if (problems.length) {
      logger.warn(`[contract] ${contract.method} ${contract.path} answered ${response.status} outside its contract`, {
        requestId: requestIdOf(request),
        problems,
      });
    }
  } catch (error) {
    logger.warn("[contract] the contract check failed", { requestId: requestIdOf(request), error: error instanceof Error ? error.message : String(error) });
  }
}

/** The endpoint, with its answers checked when the contract check is on (else the endpoint itself: no cost in production). */
export function withContractCheck(endpoint: Endpoint): Endpoint {
  if (!contractCheckOn()) return endpoint;
  return {
    contract: endpoint.contract,
    async run(args) {
      const response = await endpoint.run(args);
      void reportContractMismatch(endpoint.contract, args.request, response, copyToCheck(response));
      return response;
    },
  };
}
