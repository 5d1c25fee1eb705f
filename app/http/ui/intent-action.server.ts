import type { ActionFunctionArgs } from "@remix-run/node";
import type { Actor } from "~/domain/actor";
import { AppError } from "~/domain/errors";
import { guard, type Guarded } from "../policy/guard.server";
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

/**
 * Runs a page's form action under the policy of the /api operation it
 * mirrors (app/http/policy/guard.server.ts, the one the API and MCP doors
 * call): role, plan, feature flag, and for AI operations the plan's AI rate
 * and one of the user's AI slots, held until `work` ends. `input` is what the
 * API body would carry (its `provider` decides whether the AI rate counts).
 * A refusal is thrown as the AppError the API answers with; the page's
 * `formFailure` shows its message beside the form.
 */
export async function underPolicy<R>(actor: Actor, contract: Guarded, input: unknown, work: () => Promise<R>): Promise<R> {
  const { release } = await guard(actor, contract, { read: () => input });
  try {
    return await work();
  } finally {
    release?.();
  }
}

/** An `intentAction` handler run `underPolicy` of `contract`; `inputOf` picks the API body's equivalent (default: the posted values). */
export function guarded<F extends Handler>(contract: Guarded, handler: F, inputOf: (args: IntentArgs) => unknown = (args) => args.values): F {
  return ((args: IntentArgs) => underPolicy(args.actor, contract, inputOf(args), () => handler(args))) as F;
}
