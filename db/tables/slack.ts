/** Slack (migration 0025): the organization's workspace connection, its channel routing and its message deliveries. */
export interface SlackConnectionsTable {
  orgId: string;
  teamId: string;
  teamName: string;
  botUserId: string | null;
  /** The bot token, encrypted (app/utils/crypto.server.ts; rotated by app/ops/rotate-key.server.ts). */
  accessToken: string;
  scopes: string | null;
  connectedById: string | null;
  /** `needs_reconnect` after Slack answered invalid_auth or token_revoked. */
  status: "active" | "needs_reconnect";
  /** The last failure, in plain words, shown on Settings → Slack. */
  lastError: string | null;
  lastErrorAt: string | null;
  defaultChannelId: string | null;
  defaultChannelName: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface SlackEventChannelsTable {
  orgId: string;
  /** One of SLACK_EVENT_KINDS (app/domain/slack/slack.schema.ts). */
  kind: string;
  channelId: string;
  channelName: string;
}

export interface SlackProjectChannelsTable {
  projectId: string;
  orgId: string;
  channelId: string;
  channelName: string;
}

export interface SlackDeliveriesTable {
  id: string;
  orgId: string;
  /** What happened, e.g. `event:<id>` or `approval:<id>:requested`: with channelId, unique (never posted twice). */
  eventKey: string;
  kind: string;
  channelId: string;
  /** JSON {text, blocks}. */
  message: string;
  status: "pending" | "sent" | "failed";
  attempts: number;
  messageTs: string | null;
  lastError: string | null;
  createdAt: string;
  updatedAt: string;
}

// Table interfaces of this area; each is listed in SlackTables (merged into Database in ../schema.ts).
export interface SlackTables {
  slackConnections: SlackConnectionsTable;
  slackEventChannels: SlackEventChannelsTable;
  slackProjectChannels: SlackProjectChannelsTable;
  slackDeliveries: SlackDeliveriesTable;
}
