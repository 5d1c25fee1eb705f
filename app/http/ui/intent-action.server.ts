import type { ActionFunctionArgs } from "@remix-run/node";
import type { Actor } from "~/domain/actor";
import { AppError } from "~/domain/errors";
import { type FormValues, formFailure, formValues, requireUiActor } from "./ui.server";

/**
 * The action of a page whose forms post an `intent` ("add", "remove"…): the
 * signed-in actor and the posted values are read once, the intent's handler
 * runs, and a failure comes back as the page's form state (field errors next
 * to their fields, the values minus `secretFields`, the intent, so the page
 * shows the message beside the form that failed), with JavaScript on or off.
 * An intent the page does not know is a 400 form error. A thrown Response
 * (a redirect, a 404) passes through. Handlers also get the action's
 * `params` (pages under /:projectId, /:webhookId…) and `context`.
 */

export interface IntentArgs extends ActionFunctionArgs {
  actor: Actor;
  values: FormValues;
  intent: string;
}

type Handler = (args: IntentArgs) => Promise<unknown>;

export function intentAction<H extends Record<string, Handler>>(intents: H, options: { secretFields?: string[] } = {}) {
  return async (args: ActionFunctionArgs): Promise<Awaited<ReturnType<H[keyof H]>> | ReturnType<typeof formFailure>> => {
    const actor = await requireUiActor(args.request, args.context);
    const values = await formValues(args.request);
    const intent = values.intent ?? "";
    try {
      const handler = Object.hasOwn(intents, intent) ? intents[intent] : undefined;
      if (!handler) throw new AppError("VALIDATION_ERROR", 400, "This form sent an action the page does not know. Reload the page and try again.");
      return (await handler({ ...args, actor, values, intent })) as Awaited<ReturnType<H[keyof H]>>;
    } catch (error) {
      if (error instanceof Response) throw error;
      return formFailure(error, values, options.secretFields ?? [], { intent });
    }
  };
}
