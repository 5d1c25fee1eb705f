import type { ActionFunctionArgs } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { AppError } from "~/domain/errors";
import { switchOrganization } from "~/domain/orgs/switch.server";
import { formValues, requireUiActor, safeRedirect } from "~/http/ui/ui.server";

/** /admin opens on the members tab. */
export const loader = () => redirect("/admin/dashboard");

/** The sidebar's organization switcher posts here (any member; works without JavaScript). */
export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  if (values.intent !== "switch-organization") throw new Response("Unknown action", { status: 400 });
  try {
    await switchOrganization(actor, values.organizationId ?? "");
  } catch (error) {
    if (error instanceof AppError && error.status === 404) throw new Response("You are not a member of that organization", { status: 404 });
    throw error;
  }
  return redirect(safeRedirect(values.redirectTo, "/home"));
}
