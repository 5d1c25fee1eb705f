import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { ErrorPage, errorTitle, NOT_FOUND } from "~/components/error-page";
import { getUiActor } from "~/http/ui/ui.server";

/**
 * Any page address no route claims (/api/* has its own, api.$.ts): 404 with
 * the not-found page, whose ways back depend on whether someone is signed in.
 */

export const meta: MetaFunction = () => [{ title: errorTitle(NOT_FOUND) }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await getUiActor(request, context);
  return data({ signedIn: Boolean(actor) }, { status: 404 });
}

/** A form posted to an unknown address: 404 as well (not 405), shown by the root error page. */
export function action() {
  throw new Response("Not Found", { status: 404 });
}

export default function NotFound() {
  const { signedIn } = useLoaderData<typeof loader>();
  return <ErrorPage copy={NOT_FOUND} signedIn={signedIn} />;
}
