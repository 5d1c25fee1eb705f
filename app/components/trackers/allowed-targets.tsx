import { Link } from "@remix-run/react";

/** "repository" → "repositories", "team" → "teams". */
export const pluralKind = (kind: string) => (kind.endsWith("y") ? `${kind.slice(0, -1)}ies` : `${kind}s`);

/**
 * Where a tracker connection may send stories, on its card in Settings →
 * Issue trackers, said plainly to everyone (editors learn where they can
 * send); owners and admins get the link to choose (docs/trackers.md).
 */
export function AllowedTargetsSummary({
  c,
  isAdmin,
}: {
  c: { id: string; serviceName: string; accountLabel: string; targetKind: string; allowedTargets: { id: string; name: string }[] | null };
  isAdmin: boolean;
}) {
  const kinds = pluralKind(c.targetKind);
  return (
    <div className="tracker-allowed">
      <h4>Where stories may be sent</h4>
      {c.allowedTargets === null ? (
        <p data-testid="allowed-targets">
          <span className="badge badge-warning">Not limited</span> Any {c.targetKind} this token can reach: every editor can send stories to all of them.{" "}
          {isAdmin ? `Choose the ${kinds} editors may send to.` : "An owner or admin can limit this."}
        </p>
      ) : (
        <p data-testid="allowed-targets">
          Only {c.allowedTargets.length === 1 ? `this ${c.targetKind}` : `these ${kinds}`}: {c.allowedTargets.map((t) => t.name).join(", ")}.
        </p>
      )}
      {isAdmin ? (
        <p>
          <Link to={`/settings/trackers/${c.id}`} aria-label={`Choose the ${kinds} of ${c.serviceName} (${c.accountLabel})`}>
            Choose the {kinds}
          </Link>
        </p>
      ) : null}
    </div>
  );
}
