// First: sets Zod up for the pages' Content-Security-Policy before any route module builds a schema.
import "./utils/zod-browser";
import type { HeadersFunction, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Links, Meta, Outlet, Scripts, ScrollRestoration, useRouteError, useRouteLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { readTheme } from "./http/theme.server";
import { ErrorPage, errorCopy, errorTitle } from "./components/error-page";
import styles from "./styles/app.css?url";
import polish from "./styles/polish.css?url";
import responsive from "./styles/responsive.css?url";
import { useNonce } from "./utils/nonce";
import { colorSchemeOf } from "./utils/theme";

export const links: LinksFunction = () => [
  { rel: "stylesheet", href: styles },
  { rel: "stylesheet", href: responsive },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
  { rel: "stylesheet", href: polish },
];

/** The colour theme from the `theme` cookie (docs/ui.md, "Themes"), so the server renders it and nothing flashes. */
export function loader({ request }: LoaderFunctionArgs) {
  return { theme: readTheme(request) };
}

export function Layout({ children }: { children: ReactNode }) {
  // The page's Content-Security-Policy nonce (entry.server.tsx): Remix's inline scripts run only with it.
  const nonce = useNonce();
  // Also on error pages; "system" (no data-theme: app.css follows prefers-color-scheme) if the loader did not run.
  const theme = useRouteLoaderData<typeof loader>("root")?.theme ?? "system";
  return (
    <html lang="en" data-theme={theme === "system" ? undefined : theme}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="color-scheme" content={colorSchemeOf(theme)} />
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

/** Only the error page has a title here ("Page not found · PRD Studio"); every page sets its own. */
export const meta: MetaFunction = ({ error }) => (error ? [{ title: errorTitle(errorCopy(error)) }] : []);

export function ErrorBoundary() {
  const error = useRouteError();
  // Signed in when the app shell's loader ran (an error inside the app); unknown addresses are the catch-all route's ($.tsx).
  const signedIn = Boolean(useRouteLoaderData("routes/_app"));
  return <ErrorPage copy={errorCopy(error)} signedIn={signedIn} />;
}
