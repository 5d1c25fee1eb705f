/** What the card of a service not set up needs to say. */
export interface NotSetUpCard {
  provider: string;
  service: string;
  account: string;
  /** The variables to set: for owners and admins only. */
  setup: { clientId: string; clientSecret: string } | null;
  redirectUri: string | null;
}

/**
 * A workspace integration this server has not set up (Settings → Integrations, docs/integrations.md): owners and
 * admins read what their server's administrator must do, with the variable names and the redirect URI only in a
 * details element; a member sees the card only while a connection of theirs is still stored, to disconnect it.
 */
export function NotSetUp({ card, isAdmin }: { card: NotSetUpCard; isAdmin: boolean }) {
  if (!isAdmin || !card.setup) {
    return (
      <div className="alert alert-info">
        <p>{card.service} is no longer set up on this server, so nothing can be exported to it. You can disconnect it.</p>
      </div>
    );
  }
  return (
    <div className="alert alert-info" data-testid={`setup-${card.provider}`}>
      <p>
        Your server administrator has not set up {card.service} yet, so nobody in your organization can connect it. They need to register PRD Studio with{" "}
        {card.account} and add the client ID and secret it gets to the server's settings — see docs/integrations.md.
      </p>
      <details>
        <summary>What the server administrator needs</summary>
        <ul>
          <li>
            Set <code>{card.setup.clientId}</code> and <code>{card.setup.clientSecret}</code> in the server's environment, then restart it.
          </li>
          {card.redirectUri ? (
            <li>
              Register this redirect URI with {card.account}: <code>{card.redirectUri}</code>
            </li>
          ) : null}
        </ul>
      </details>
    </div>
  );
}
