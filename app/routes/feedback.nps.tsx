import type { ActionFunctionArgs, LoaderFunctionArgs } from "@remix-run/node";

import { ZodError } from "zod/v4";
import { AppError } from "~/domain/errors";
import { npsSchema } from "~/domain/feedback/nps.schema";
import { npsStatus, submitNps } from "~/domain/feedback/nps.server";
import { redirectWithNotice } from "~/http/ui/flash.server";
import { formValues, requireUiActor, safeRedirect } from "~/http/ui/ui.server";

/**
 * Resource route of the NPS card (app/components/nps-survey.tsx): GET gives
 * the caller's survey status (for the card's fetcher), POST records an answer
 * or "Not now" and redirects back to the page it came from.
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  return npsStatus(actor);
}

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  const back = safeRedirect(values.redirectTo, "/home");
  const parsed = npsSchema.safeParse({ ...values, dismissed: values.intent === "dismiss" ? true : undefined });
  try {
    if (!parsed.success) throw parsed.error;
    const response = await submitNps(actor, parsed.data);
    const message = response.dismissed ? "We will ask again in a month." : "Thanks for your feedback!";
    return redirectWithNotice(back, message);
  } catch (error) {
    if (!(error instanceof ZodError) && !(error instanceof AppError && error.status === 400)) throw error;
    const message = "Pick a score from 0 to 10 (and keep the comment under 2000 characters).";
    return redirectWithNotice(back, message, "error");
  }
}
