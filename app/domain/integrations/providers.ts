import type { IntegrationProvider } from "#db/tables/exports";

/**
 * The workspace integrations. `notes` speaks the Notion API,
 * `wiki` Confluence Cloud, `docs` Google Drive / Docs. Shared by the API,
 * the settings page and the tests; nothing here touches the network.
 */
export type { IntegrationProvider };
export const INTEGRATION_PROVIDERS = ["notes", "wiki", "docs"] as const satisfies readonly IntegrationProvider[];

/** `service`: the product; `account`: whose sign-in the connection is (Atlassian for Confluence, Google for Docs). */
export const PROVIDER_INFO: Record<IntegrationProvider, { label: string; service: string; account: string; target: string; flag: string }> = {
  notes: { label: "Notes workspace", service: "Notion", account: "Notion", target: "a page in your Notion workspace", flag: "export_notes" },
  wiki: { label: "Wiki", service: "Confluence Cloud", account: "Atlassian", target: "a page in a Confluence space", flag: "export_wiki" },
  docs: { label: "Online documents", service: "Google Docs", account: "Google", target: "a Google Doc in your Drive", flag: "export_docs" },
};

/** The environment variables that configure a provider's OAuth client. */
export function providerEnvNames(provider: IntegrationProvider) {
  const p = provider.toUpperCase();
  return { clientId: `${p}_CLIENT_ID`, clientSecret: `${p}_CLIENT_SECRET` };
}

/** What a person reads about a service this server has not set up (the variables are for the administrator only). */
export const notSetUpMessage = (provider: IntegrationProvider) =>
  `Your server administrator has not set up ${PROVIDER_INFO[provider].service} yet, so it cannot be connected.`;

/** Why a callback did not connect; the settings page shows one fixed message per reason. */
export const CALLBACK_ERRORS = {
  access_denied: "You cancelled the authorization, so nothing was connected.",
  invalid_state: "This authorization link is not valid (already used, or started by someone else). Start again with Connect.",
  wrong_session:
    "This authorization was started in another browser session or by another account, so nothing was connected. Sign in here and start again with Connect.",
  expired_state: "The authorization took longer than 10 minutes. Start again with Connect.",
  token_error: "The service refused the authorization code. Start again with Connect.",
  no_site: "Your account has no site this app can publish to.",
  not_configured: "This integration is not configured by your administrator.",
  provider_error: "The service could not be reached or answered with an error. Try again in a moment.",
} as const;
export type CallbackError = keyof typeof CALLBACK_ERRORS;
