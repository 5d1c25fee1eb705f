// First: sets Zod up for the pages' Content-Security-Policy before any route module builds a schema.
import "./utils/zod-browser";
import type { HeadersFunction, LinksFunction } from "@remix-run/node";
import {
  isRouteErrorResponse,
  Link,
  Links,
  Meta,
  Outlet,
  Scripts,
  ScrollRestoration,
  useRouteError,
} from "@remix-run/react";
import type { ReactNode } from "react";
import styles from "./styles/app.css?url";
import { useNonce } from "./utils/nonce";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export function Layout({ children }: { children: ReactNode }) {
  // The page's Content-Security-Policy nonce (entry.server.tsx): Remix's inline scripts run only with it.
  const nonce = useNonce();
  return (
    <html lang="en">
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <Meta />
        <Links />
      </head>
      <body>
        {children}
        <ScrollRestoration nonce={nonce} />
        <Scripts nonce={nonce} />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

/** The error page keeps a thrown Response's Retry-After (the 503 of a full disk); Remix passes it only to the boundary's route. */
export const headers: HeadersFunction = ({ errorHeaders }) => {
  const headers = new Headers();
  const retry = errorHeaders?.get("Retry-After");
  if (retry) headers.set("Retry-After", retry);
  return headers;
};

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  // A thrown Response's text (as the 503 of a full disk), or the `error` of a JSON one.
  const said = isRouteErrorResponse(error) ? (typeof error.data === "string" && error.data ? error.data : error.data?.error ?? error.statusText) : null;
  const message =
    status === 404
      ? "We could not find that page."
      : status === 403
        ? "You do not have access to this page."
        : said
          ? String(said)
          : "Something went wrong on our side. Try again in a moment.";
  const title = status === 404 ? "Page not found" : status === 403 ? "Access denied" : status === 503 ? "Temporarily unavailable" : "Something went wrong";
  return (
    <main className="error-page">
      <h1>{title}</h1>
      <p>{message}</p>
      <p>
        <Link to="/">Back to PRD Studio</Link>
      </p>
    </main>
  );
}
