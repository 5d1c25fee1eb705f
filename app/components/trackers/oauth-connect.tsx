import { Form } from "@remix-run/react";
import type { TrackerService } from "~/domain/trackers/adapter";

/**
 * "Connect with GitHub / Linear / Jira" on Settings → Issue trackers, for the
 * services whose OAuth client the server has (owners and admins only). Each
 * button is a plain POST that the page answers with a redirect to the
 * service's consent page (a full page load, also with JavaScript off); the
 * service sends the browser back to /api/integrations/trackers/{service}/callback.
 */
export function OAuthConnect({ services }: { services: { id: TrackerService; name: string }[] }) {
  return (
    <section className="card stack tracker-connect" aria-labelledby="oauth-heading">
      <h3 id="oauth-heading">Connect by signing in</h3>
      <p>
        Sign in to the service and allow access to create and update issues; you come back here when it is done. Nothing to copy, and the access can be
        withdrawn in the service at any time.
      </p>
      <ul className="tracker-oauth-buttons">
        {services.map((s) => (
          <li key={s.id}>
            <Form method="post" reloadDocument>
              <input type="hidden" name="intent" value="oauth" />
              <input type="hidden" name="service" value={s.id} />
              <button type="submit" className="btn">
                Connect with {s.name}
              </button>
            </Form>
          </li>
        ))}
      </ul>
    </section>
  );
}

/** A connection's "Reconnect with …" button (after the service refused to renew its access). */
export function ReconnectButton({ service, name }: { service: TrackerService; name: string }) {
  return (
    <Form method="post" reloadDocument className="inline-form">
      <input type="hidden" name="intent" value="oauth" />
      <input type="hidden" name="service" value={service} />
      <button type="submit" className="btn btn-sm">
        Reconnect with {name}
      </button>
    </Form>
  );
}
