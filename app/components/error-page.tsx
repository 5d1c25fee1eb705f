import { isRouteErrorResponse, Link } from "@remix-run/react";
import { PRODUCT_NAME } from "./logo";
import { PublicHeader } from "./public-header";

export interface ErrorCopy {
  status: number;
  /** The heading, and the page title before " · PRD Studio". */
  title: string;
  message: string;
}

export const NOT_FOUND: ErrorCopy = {
  status: 404,
  title: "Page not found",
  message: "We could not find that page. The link may be mistyped or out of date, or what it pointed to was deleted.",
};

/** What a not-found, access or server error says, from what a route threw (a Response or an Error). */
export function errorCopy(error: unknown): ErrorCopy {
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // A thrown Response's text (as the 503 of a full disk), or the `error` of a JSON one.
  const said = isRouteErrorResponse(error) ? (typeof error.data === "string" && error.data ? error.data : (error.data?.error ?? error.statusText)) : null;
  if (status === 404) return NOT_FOUND;
  if (status === 403) {
    return { status, title: "Access denied", message: "You do not have access to this page. Ask an owner or admin of your organization if you need it." };
  }
  const message = said ? String(said) : "Something went wrong on our side. Try again in a moment.";
  return { status, title: status === 503 ? "Temporarily unavailable" : "Something went wrong", message };
}

/** The `<title>` of an error page: "Page not found · PRD Studio". */
export const errorTitle = (copy: ErrorCopy) => `${copy.title} · ${PRODUCT_NAME}`;

/**
 * A not-found or error page in the public frame (brand, navigation, theme):
 * the heading, a plain explanation and the ways back — Home and Projects for
 * someone signed in, the landing page otherwise.
 */
export function ErrorPage({ copy, signedIn }: { copy: ErrorCopy; signedIn: boolean }) {
  return (
    <div className="landing error-shell">
      <PublicHeader signedIn={signedIn} />
      <main id="main" className="error-page" data-status={copy.status}>
        <p className="error-code">Error {copy.status}</p>
        <h1>{copy.title}</h1>
        <p>{copy.message}</p>
        <nav aria-label="Ways back">
          {signedIn ? (
            <ul className="error-links">
              <li>
                <Link className="btn" to="/home">
                  Home
                </Link>
              </li>
              <li>
                <Link className="btn btn-secondary" to="/projects">
                  Projects
                </Link>
              </li>
            </ul>
          ) : (
            <ul className="error-links">
              <li>
                <Link className="btn" to="/">
                  Go to the {PRODUCT_NAME} home page
                </Link>
              </li>
              <li>
                <Link className="btn btn-secondary" to="/sign-in">
                  Sign in
                </Link>
              </li>
            </ul>
          )}
        </nav>
      </main>
    </div>
  );
}
