import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { LogoMark, PRODUCT_NAME } from "~/components/logo";
import { RelativeTime, StatusBadge } from "~/components/project-badges";
import { brandCssVars } from "~/domain/branding/brand-style";

type Branding = Parameters<typeof brandCssVars>[0] & { companyName?: string | null; logoUrl?: string | null };

/**
 * The frame of a PRD opened without an account (a share link, a personal
 * review link): the organization's brand (or ours), a badge saying what kind
 * of link this is, then the page.
 */
export function PublicPrdFrame({ branding, badge, children }: { branding: Branding | null | undefined; badge: string; children: ReactNode }) {
  return (
    <div className="landing" style={branding ? brandCssVars(branding) : undefined}>
      <header>
        {branding?.companyName || branding?.logoUrl ? (
          <span className="auth-brand" style={{ margin: 0 }} data-testid="share-brand">
            {branding.logoUrl ? <img src={branding.logoUrl} alt={`${branding.companyName || "Company"} logo`} height={32} /> : null}
            {branding.companyName}
          </span>
        ) : (
          <Link to="/" className="auth-brand" style={{ margin: 0 }}>
            <LogoMark /> {PRODUCT_NAME}
          </Link>
        )}
        <span className="badge">{badge}</span>
      </header>
      <main id="main" style={{ marginTop: 24 }}>
        {children}
      </main>
    </div>
  );
}

/** The shared project's name, status, PRD version and last change. */
export function PublicProjectHeading({
  project,
  version,
}: {
  project: { name: string; status: string; updatedAt: string };
  version: number | null | undefined;
}) {
  return (
    <div className="page-header">
      <div>
        <h1>{project.name}</h1>
        <div className="meta-row">
          <StatusBadge status={project.status} />
          {version ? <span>Version {version}</span> : null}
          <span>
            Updated <RelativeTime iso={project.updatedAt} />
          </span>
        </div>
      </div>
    </div>
  );
}
