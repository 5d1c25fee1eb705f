import type { ProbeResult, ProviderClient, ProviderCredentials } from "../types";
import { anthropicClient, anthropicProbe } from "./anthropic.server";
import { googleClient, googleProbe } from "./google.server";
import { openaiClient, openaiProbe } from "./openai.server";

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

/** One cheap, unbilled call that shows whether the key and endpoint work; throws a ProviderError when not. */
export function probeProvider(creds: ProviderCredentials): Promise<ProbeResult> {
  switch (creds.provider) {
    case "provider_a":
      return openaiProbe(creds);
    case "provider_b":
      return anthropicProbe(creds);
    case "provider_c":
      return googleProbe(creds);
  }
}
