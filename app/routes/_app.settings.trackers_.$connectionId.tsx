import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { type FormState, FormAlert } from "~/components/forms";
import { pluralKind } from "~/components/trackers/allowed-targets";
import { isAdmin } from "~/domain/actor";
import { allowedTargetChoices, setAllowedTargets } from "~/domain/trackers/allowed-targets.server";
import { allowedTargetsSchema } from "~/domain/trackers/trackers.schema";
import { redirectWithNotice } from "~/http/ui/flash.server";
import { intentAction } from "~/http/ui/intent-action.server";
import { orPageError, requireUiActor } from "~/http/ui/ui.server";
import storyStyles from "~/styles/tracker-stories.css?url";
import trackerStyles from "~/styles/trackers.css?url";

/**
 * Where one tracker connection may send stories (docs/trackers.md, "Where
 * stories may be sent"): owners and admins check the repositories, teams or
 * projects editors may send to, or allow any the token reaches. A plain
 * form: radio buttons and checkboxes, posted and redirected back.
 */

export const meta: MetaFunction = () => [{ title: "Where stories may be sent · Issue trackers · PRD Studio" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: trackerStyles },
  { rel: "stylesheet", href: storyStyles },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if (!isAdmin(actor)) return { allowed: false as const };
  const choices = await orPageError(allowedTargetChoices(actor, params.connectionId ?? ""));
  return { allowed: true as const, ...choices };
}

export async function action(args: ActionFunctionArgs) {
  // The checked targets are repeated `targets` fields; the form reader keeps one value per name.
  const raw = args.request.clone();
  return intentAction({
    save: async ({ actor, values, params }) => {
      const id = params.connectionId ?? "";
      const checked = (await raw.formData()).getAll("targets").filter((v): v is string => typeof v === "string");
      const input = allowedTargetsSchema.parse({ allowedTargets: values.mode === "any" ? null : checked });
      const { connection: c } = await setAllowedTargets(actor, id, input);
      const where = c.allowedTargets ? `only to ${c.allowedTargets.map((t) => t.name).join(", ")}` : `to any ${c.targetKind} the token reaches`;
      return redirectWithNotice("/settings/trackers", `${c.serviceName} (${c.accountLabel}): stories may now be sent ${where}.`);
    },
  })(args);
}

export default function AllowedTargetsPage() {
  const d = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as FormState | undefined;
  if (!d.allowed)
    return (
      <div className="card empty-state">
        <h2>Where stories may be sent is chosen by admins</h2>
        <p>Ask an owner or admin of your organization.</p>
      </div>
    );
  const { connection: c, targets, error } = d;
  const kinds = pluralKind(c.targetKind);
  const state = result?.formError ? result : null;
  const fieldError = state?.fieldErrors?.allowedTargets;
  const postedMode = state?.values?.mode;
  const limited = postedMode ? postedMode === "only" : c.allowedTargets !== null;
  // Nothing chosen yet: the targets already used with this connection are checked, ready to keep.
  const checkedAt = (t: (typeof targets)[number]) => (c.allowedTargets === null ? t.used : t.allowed);
  return (
    <div className="stack">
      <p>
        <Link to="/settings/trackers">← Issue trackers</Link>
      </p>
      <h2>
        Where stories may be sent: {c.serviceName} <span className="muted">· {c.accountLabel}</span>
      </h2>
      <p className="muted">
        The token of this connection can reach every {c.targetKind} below. Editors can send a project's stories only to the {kinds} allowed here; sending
        anywhere else is refused, on the pages, through the API and for AI agents.
      </p>
      {error ? (
        <p className="tracker-failed" role="status">
          {c.serviceName} could not list its {kinds} now ({error}); only the ones already allowed are shown.
        </p>
      ) : null}
      <FormAlert state={state && !fieldError ? state : null} />
      <Form method="post" className="form card stack">
        <input type="hidden" name="intent" value="save" />
        <fieldset>
          <legend>Editors may send stories to</legend>
          <label className="tracker-pick">
            <input type="radio" name="mode" value="any" defaultChecked={!limited} /> Any {c.targetKind} this token can reach
          </label>
          <label className="tracker-pick">
            <input type="radio" name="mode" value="only" defaultChecked={limited} /> Only the {kinds} checked below
          </label>
        </fieldset>
        <fieldset
          className="tracker-picks"
          aria-describedby={fieldError ? "allowed-targets-error" : "allowed-targets-hint"}
          aria-invalid={fieldError ? true : undefined}
        >
          <legend>{kinds[0]!.toUpperCase() + kinds.slice(1)}</legend>
          <p className="hint" id="allowed-targets-hint">
            Used with “Only the {kinds} checked below”. Those stories were already sent to are checked until you choose.
          </p>
          {targets.length === 0 ? <p className="muted">The token reaches no {c.targetKind}.</p> : null}
          <ul className="tracker-pick-list">
            {targets.map((t) => (
              <li key={t.id} className="tracker-pick">
                <input type="checkbox" id={`target-${t.id}`} name="targets" value={t.id} defaultChecked={checkedAt(t)} />
                <label htmlFor={`target-${t.id}`}>
                  {t.name}
                  {t.used ? <span className="muted"> — stories were sent here</span> : null}
                  {t.listed ? null : <span className="muted"> — no longer listed by {c.serviceName}</span>}
                </label>
              </li>
            ))}
          </ul>
          {fieldError ? (
            <p className="field-error" id="allowed-targets-error">
              {fieldError}
            </p>
          ) : null}
        </fieldset>
        <div>
          <button type="submit" className="btn">
            Save
          </button>
        </div>
      </Form>
    </div>
  );
}
