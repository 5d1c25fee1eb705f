import type { LinksFunction } from "@remix-run/node";
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

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export function Layout({ children }: { children: ReactNode }) {
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
        <ScrollRestoration />
        <Scripts />
      </body>
    </html>
  );
}

export default function App() {
  return <Outlet />;
}

export function ErrorBoundary() {
  const error = useRouteError();
  const status = isRouteErrorResponse(error) ? error.status : 500;
  const message =
    status === 404
      ? "We could not find that page."
      : status === 403
        ? "You do not have access to this page."
        : isRouteErrorResponse(error)
          ? String(error.data?.error ?? error.statusText)
          : "Something went wrong on our side. Try again in a moment.";
  return (
    <main className="error-page">
      <h1>{status === 404 ? "Page not found" : status === 403 ? "Access denied" : "Something went wrong"}</h1>
      <p>{message}</p>
      <p>
        <Link to="/">Back to PRD Studio</Link>
      </p>
    </main>
  );
}
