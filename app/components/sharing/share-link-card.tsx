import { Form } from "@remix-run/react";
import type { ReactNode } from "react";
import { CopyButton } from "../copy-button";
import { RelativeTime } from "../project-badges";

export function ShareLinkCard({
  share,
  notice,
}: {
  share: { enabled: boolean; shareUrl: string | null; hasPassword: boolean; expiresAt: string | null };
  notice: ReactNode;
}) {
  return (
    <section className="card" aria-labelledby="share-heading">
      <h2 id="share-heading">Share link</h2>
      {notice}
      {share.enabled ? (
        <>
          <p>Anyone with this link can read the PRD, its status and activity — nothing else.</p>
          <div className="secret-box">
            <code data-testid="share-url">{share.shareUrl}</code>
            <CopyButton value={share.shareUrl ?? ""} />
          </div>
          <p className="muted" style={{ marginTop: 8 }}>
            {share.hasPassword ? "Protected by a password. " : "No password. "}
            {share.expiresAt ? (
              <>
                Expires <RelativeTime iso={share.expiresAt} />.
              </>
            ) : (
              "Never expires."
            )}
          </p>
        </>
      ) : (
        <p className="muted">Not shared. Turn on a read-only link for stakeholders without an account.</p>
      )}
      <Form method="post" className="form" style={{ maxWidth: 520 }}>
        <input type="hidden" name="intent" value="share-enable" />
        <div className="form-row">
          <div className="field">
            <label htmlFor="share-password">Password (optional)</label>
            <input id="share-password" name="password" type="password" autoComplete="new-password" minLength={4} />
          </div>
          <div className="field">
            <label htmlFor="share-expires">Expires on (optional)</label>
            <input id="share-expires" name="expiresOn" type="date" />
          </div>
        </div>
        {share.enabled ? (
          <div className="inline">
            {share.hasPassword ? (
              <label className="checkbox">
                <input type="checkbox" name="removePassword" /> Remove the password
              </label>
            ) : null}
            {share.expiresAt ? (
              <label className="checkbox">
                <input type="checkbox" name="noExpiry" /> Never expire
              </label>
            ) : null}
          </div>
        ) : null}
        <div className="inline">
          <button type="submit" className="btn">
            {share.enabled ? "Update link" : "Create share link"}
          </button>
        </div>
      </Form>
      {share.enabled ? (
        <Form method="post" style={{ marginTop: 8 }}>
          <input type="hidden" name="intent" value="share-revoke" />
          <button type="submit" className="btn btn-danger btn-sm">
            Revoke link
          </button>
        </Form>
      ) : null}
    </section>
  );
}
