import type { IntegrationProvider } from "../providers";
import { docsOAuth } from "./docs.server";
import { notesOAuth } from "./notes.server";
import type { OAuthClient } from "./types";
import { wikiOAuth } from "./wiki.server";

export const OAUTH_CLIENTS: Record<IntegrationProvider, OAuthClient> = { notes: notesOAuth, wiki: wikiOAuth, docs: docsOAuth };
