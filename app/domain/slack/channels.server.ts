import { slackClient } from "./client.server";

/**
 * The channels the bot can see (conversations.list, public and private, not
 * archived), every page of them, cached per organization for a minute so the
 * settings page and its saves do not page through Slack each time.
 */

export interface SlackChannel {
  id: string;
  name: string;
  isPrivate: boolean;
  isMember: boolean;
}

const TTL_MS = 60_000;
const MAX_PAGES = 20;
const cache = new Map<string, { at: number; channels: SlackChannel[] }>();

export function forgetChannels(orgId: string) {
  cache.delete(orgId);
}

/** Throws the WebClient's error (see slackFailure) when Slack refuses. */
export async function listChannels(orgId: string, token: string): Promise<SlackChannel[]> {
  const hit = cache.get(orgId);
  if (hit && Date.now() - hit.at < TTL_MS) return hit.channels;
  const client = slackClient(token);
  const channels: SlackChannel[] = [];
  let cursor: string | undefined;
  for (let page = 0; page < MAX_PAGES; page++) {
    const res = await client.conversations.list({ types: "public_channel,private_channel", exclude_archived: true, limit: 200, ...(cursor ? { cursor } : {}) });
    for (const c of res.channels ?? []) {
      if (c.id && c.name) channels.push({ id: c.id, name: c.name, isPrivate: Boolean(c.is_private), isMember: Boolean(c.is_member) });
    }
    cursor = res.response_metadata?.next_cursor || undefined;
    if (!cursor) break;
  }
  channels.sort((a, b) => a.name.localeCompare(b.name));
  cache.set(orgId, { at: Date.now(), channels });
  return channels;
}
