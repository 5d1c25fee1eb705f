import type { Contract } from "../contract";
import * as apiKeys from "./api-keys";
import * as auth from "./auth";
import * as system from "./system";

/** Every contract, in documentation order. Add each new area here. */
export const allContracts: Contract<any, any, any>[] = [system, auth, apiKeys].flatMap((area) =>
  Object.values(area),
);
