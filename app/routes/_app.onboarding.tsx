import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { Field, FieldNotes, FormAlert, SubmitButton, type FormState } from "~/components/forms";
import { PRD_STYLES } from "~/domain/prd/prd.schema";
import { completeOnboarding } from "~/domain/users/onboarding.server";
import { getProfile } from "~/domain/users/profile.server";
import { MAX_INVITES, onboardingSchema } from "~/domain/users/users.schema";
import { requestMeta } from "~/http/context.server";
import { formFailure, formValues, requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Welcome · PRD Studio" }];

const TEAM_SIZES = ["Just me", "2-10", "11-50", "51-200", "200+"];
const INTERESTS = [
  ["ai", "AI-assisted writing"],
  ["templates", "Templates"],
  ["collaboration", "Reviews and comments"],
  ["roadmaps", "Roadmaps"],
  ["api", "API and integrations"],
] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const { profile, preferences } = await getProfile(actor);
  return { profile, preferences: preferences as Record<string, unknown> };
}

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const form = await request.clone().formData();
  const values = await formValues(request);
  if (values.intent === "skip") return redirect("/home?welcome=1");
  try {
    const input = onboardingSchema.parse({
      ...values,
      interests: form.getAll("interests").map(String),
      createOrg: values.createOrg === "on",
      orgName: values.orgName || undefined,
      inviteEmails: (values.inviteEmails ?? "").split(/[\s,;]+/).filter(Boolean),
    });
    await completeOnboarding(actor, input, requestMeta(request, context));
    return redirect("/home?welcome=1");
  } catch (error) {
    return formFailure(error, { ...values, interests: form.getAll("interests").map(String).join(",") });
  }
}

export default function Onboarding() {
  const { profile, preferences } = useLoaderData<typeof loader>();
  const state = useActionData<typeof action>() as FormState | undefined;
  const pref = (key: string) => (typeof preferences[key] === "string" ? (preferences[key] as string) : "");
  const value = (key: string, fallback: string) => state?.values?.[key] ?? fallback;
  const chosen = new Set(
    state?.values ? (state.values.interests ?? "").split(",") : Array.isArray(preferences.interests) ? (preferences.interests as string[]) : [],
  );
  const error = (key: string) => state?.fieldErrors?.[key];
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Set up your workspace</h1>
          <p>A few answers help us suggest the right templates and PRD style. You can change them later in Settings.</p>
        </div>
      </div>
      <FormAlert state={state} />
      <Form method="post" className="form stack" noValidate>
        <fieldset className="card">
          <legend>
            <h2>1. About you</h2>
          </legend>
          <Field label="Full name" name="fullName" state={state} defaultValue={profile.name} autoComplete="name" required />
          <Field label="Job title" name="jobTitle" state={state} defaultValue={profile.jobTitle ?? ""} autoComplete="organization-title" required />
          <Field label="Company" name="company" state={state} defaultValue={pref("company")} autoComplete="organization" required />
        </fieldset>

        <fieldset className="card">
          <legend>
            <h2>2. How you will use PRD Studio</h2>
          </legend>
          <div className="field">
            <label htmlFor="field-useCase">What will you write first?</label>
            <textarea
              id="field-useCase"
              name="useCase"
              rows={3}
              maxLength={500}
              required
              defaultValue={value("useCase", pref("useCase"))}
              aria-invalid={error("useCase") ? true : undefined}
              aria-describedby={error("useCase") ? "field-useCase-error" : undefined}
            />
            <FieldNotes id="field-useCase" error={error("useCase")} />
          </div>
          <div className="field">
            <label htmlFor="field-teamSize">Team size</label>
            <select
              id="field-teamSize"
              name="teamSize"
              required
              defaultValue={value("teamSize", pref("teamSize"))}
              aria-invalid={error("teamSize") ? true : undefined}
            >
              <option value="">Choose…</option>
              {TEAM_SIZES.map((s) => (
                <option key={s} value={s}>
                  {s}
                </option>
              ))}
            </select>
            <FieldNotes id="field-teamSize" error={error("teamSize")} />
          </div>
          <div className="field">
            <label htmlFor="field-prdStyle">Preferred PRD style</label>
            <select
              id="field-prdStyle"
              name="prdStyle"
              required
              defaultValue={value("prdStyle", pref("prdStyle") || profile.preferredStyle || "comprehensive")}
              aria-invalid={error("prdStyle") ? true : undefined}
            >
              {PRD_STYLES.map((s) => (
                <option key={s} value={s}>
                  {s[0]!.toUpperCase() + s.slice(1)}
                </option>
              ))}
            </select>
            <FieldNotes id="field-prdStyle" error={error("prdStyle")} />
          </div>
          <fieldset className="field">
            <legend>Interested in</legend>
            {INTERESTS.map(([id, label]) => (
              <label key={id} className="inline">
                <input type="checkbox" name="interests" value={id} defaultChecked={chosen.has(id)} /> {label}
              </label>
            ))}
            <FieldNotes id="field-interests" error={error("interests")} />
          </fieldset>
        </fieldset>

        <fieldset className="card">
          <legend>
            <h2>3. Your team (optional)</h2>
          </legend>
          <label className="inline">
            <input type="checkbox" name="createOrg" defaultChecked={state?.values?.createOrg === "on"} /> Create a new organization for my team
          </label>
          <Field
            label="Organization name"
            name="orgName"
            state={state}
            hint="Required when you create an organization. You become its owner and switch to it."
          />
          <div className="field">
            <label htmlFor="field-inviteEmails">Invite teammates</label>
            <textarea
              id="field-inviteEmails"
              name="inviteEmails"
              rows={3}
              defaultValue={value("inviteEmails", "")}
              placeholder="kim@example.com, lee@example.com"
              aria-invalid={Object.keys(state?.fieldErrors ?? {}).some((k) => k.startsWith("inviteEmails")) ? true : undefined}
              aria-describedby="field-inviteEmails-hint"
            />
            <FieldNotes
              id="field-inviteEmails"
              hint={`Up to ${MAX_INVITES} e-mail addresses, separated by commas or new lines. Each gets an invitation to join as a member.`}
              error={Object.entries(state?.fieldErrors ?? {}).find(([k]) => k.startsWith("inviteEmails"))?.[1]}
            />
          </div>
        </fieldset>

        <div className="inline">
          <SubmitButton className="btn btn-primary" pendingText="Saving…" name="intent" value="complete">
            Finish setup
          </SubmitButton>
          <button type="submit" className="btn btn-secondary" name="intent" value="skip" formNoValidate>
            Skip for now
          </button>
          <Link to="/home">Back to home</Link>
        </div>
      </Form>
    </>
  );
}
