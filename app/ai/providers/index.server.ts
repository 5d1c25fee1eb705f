import type { ProviderClient, ProviderCredentials } from "../types";
import { anthropicClient } from "./anthropic.server";
import { googleClient } from "./google.server";
import { openaiClient } from "./openai.server";

/** A client for one provider with one key, created per request. */
export function createProviderClient(creds: ProviderCredentials): ProviderClient {
  switch (creds.provider) {
    case "provider_a":
      return openaiClient(creds);
    case "provider_b":
      return anthropicClient(creds);
    case "provider_c":
      return googleClient(creds);
  }
}
