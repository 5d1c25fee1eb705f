import { Link } from "@remix-run/react";
import { LogoMark, PRODUCT_NAME } from "./logo";
import { ThemeToggle } from "./theme-toggle";

/** Header of public pages: brand, marketplace, sign-in or back to the app, and the theme. */
export function PublicHeader({ signedIn }: { signedIn: boolean }) {
  return (
    <header>
      <Link to="/" className="auth-brand" style={{ margin: 0 }}>
        <LogoMark /> {PRODUCT_NAME}
      </Link>
      <nav className="inline" aria-label="Site">
        <Link to="/marketplace">Marketplace</Link>
        <Link to="/pricing">Pricing</Link>
        {signedIn ? (
          <Link className="btn" to="/projects">
            Open PRD Studio
          </Link>
        ) : (
          <>
            <Link to="/sign-in">Sign in</Link>
            <Link className="btn" to="/sign-up">
              Get started
            </Link>
          </>
        )}
      </nav>
      <ThemeToggle />
    </header>
  );
}
