import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { Field, FieldNotes, FormAlert, SubmitButton, type FormState } from "~/components/forms";
import { TableScroll } from "~/components/table-scroll";
import { currentAccount, resendVerification } from "~/domain/auth/auth.server";
import { mailIsDelivered } from "~/domain/mail/mail.server";
import { PLAN_NAMES } from "~/domain/billing/plans";
import { PRD_STYLES } from "~/domain/prd/prd.schema";
import { deleteAccount } from "~/domain/users/delete-account.server";
import { getProfile, updateProfile, updateTimezone } from "~/domain/users/profile.server";
import { deleteAccountSchema, timezoneSchema, updateProfileSchema } from "~/domain/users/users.schema";
import { requestMeta } from "~/http/context.server";
import { clearSessionCookie } from "~/http/session.server";
import { intentAction } from "~/http/ui/intent-action.server";
import { requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Account · Settings · PRD Studio" }];

function timezones(current: string) {
  const all = typeof Intl.supportedValuesOf === "function" ? Intl.supportedValuesOf("timeZone") : [];
  return [...new Set(["UTC", current, ...all])];
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const [{ organization }, { profile }] = await Promise.all([currentAccount(actor), getProfile(actor)]);
  return {
    profile,
    organization,
    timezones: timezones(profile.timezone),
    saved: new URL(request.url).searchParams.has("saved"),
    mailDelivered: mailIsDelivered(),
  };
}

export const action = intentAction({
  profile: async ({ actor, values }) => {
    const profile = updateProfileSchema.parse({
      name: values.name,
      jobTitle: values.jobTitle ?? "",
      bio: values.bio ?? "",
      avatar: values.avatar ?? "",
      preferredStyle: values.preferredStyle ?? "",
    });
    const timezone = timezoneSchema.parse({ timezone: values.timezone });
    await updateProfile(actor, profile);
    await updateTimezone(actor, timezone);
    return redirect("/settings?saved=1");
  },
  resend: async ({ actor, request, context }) => {
    await resendVerification({ email: actor.user.email }, requestMeta(request, context));
    return { sent: true as const };
  },
  delete: async ({ actor, values }) => {
    await deleteAccount(actor, deleteAccountSchema.parse(values));
    return redirect("/sign-in?accountDeleted=1", { headers: { "Set-Cookie": await clearSessionCookie() } });
  },
});

export default function AccountSettings() {
  const { profile, organization, timezones, saved, mailDelivered } = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>() as (FormState & { sent?: true }) | undefined;
  const failed = (intent: string) => (result?.intent === intent ? result : undefined);
  const profileState = failed("profile");
  const deleteState = failed("delete");
  const value = (name: string, fallback: string | null) => profileState?.values?.[name] ?? fallback ?? "";
  return (
    <div className="stack">
      <section className="card" aria-labelledby="profile-heading">
        <h2 id="profile-heading">Profile</h2>
        {saved && !profileState ? (
          <div className="alert alert-success" role="status">
            <p>Profile saved.</p>
          </div>
        ) : null}
        <FormAlert state={profileState} />
        <Form method="post" className="form" noValidate>
          <input type="hidden" name="intent" value="profile" />
          <Field label="Name" name="name" state={profileState} defaultValue={profile.name} autoComplete="name" required />
          <Field label="Job title" name="jobTitle" state={profileState} defaultValue={profile.jobTitle ?? ""} autoComplete="organization-title" />
          <div className="field">
            <label htmlFor="field-bio">Bio</label>
            <textarea
              id="field-bio"
              name="bio"
              rows={3}
              maxLength={1000}
              defaultValue={value("bio", profile.bio)}
              aria-invalid={profileState?.fieldErrors?.bio ? true : undefined}
              aria-describedby={["field-bio-hint", profileState?.fieldErrors?.bio ? "field-bio-error" : ""].join(" ").trim()}
            />
            <FieldNotes id="field-bio" hint="Up to 1000 characters." error={profileState?.fieldErrors?.bio} />
          </div>
          <Field
            label="Avatar URL"
            name="avatar"
            type="url"
            state={profileState}
            defaultValue={profile.avatar ?? ""}
            placeholder="https://…"
            hint="An http or https link to an image."
          />
          <div className="field">
            <label htmlFor="field-preferredStyle">Preferred PRD style</label>
            <select
              id="field-preferredStyle"
              name="preferredStyle"
              defaultValue={value("preferredStyle", profile.preferredStyle)}
              aria-invalid={profileState?.fieldErrors?.preferredStyle ? true : undefined}
            >
              <option value="">No preference</option>
              {PRD_STYLES.map((s) => (
                <option key={s} value={s}>
                  {s[0]!.toUpperCase() + s.slice(1)}
                </option>
              ))}
            </select>
            <FieldNotes id="field-preferredStyle" error={profileState?.fieldErrors?.preferredStyle} />
          </div>
          <div className="field">
            <label htmlFor="field-timezone">Timezone</label>
            <select
              id="field-timezone"
              name="timezone"
              defaultValue={value("timezone", profile.timezone)}
              aria-invalid={profileState?.fieldErrors?.timezone ? true : undefined}
            >
              {timezones.map((tz) => (
                <option key={tz} value={tz}>
                  {tz}
                </option>
              ))}
            </select>
            <FieldNotes id="field-timezone" error={profileState?.fieldErrors?.timezone} />
          </div>
          <SubmitButton className="btn btn-primary" pendingText="Saving…" name="intent" value="profile">
            Save profile
          </SubmitButton>
        </Form>
      </section>

      <section className="card" aria-labelledby="email-heading">
        <h2 id="email-heading">E-mail</h2>
        <p>
          {profile.email}{" "}
          {profile.emailVerified ? <span className="badge badge-success">Confirmed</span> : <span className="badge badge-warning">Not confirmed</span>}
        </p>
        {!profile.emailVerified && !mailDelivered ? (
          <p className="muted">
            This server sends no e-mail (no SMTP server is configured), so addresses cannot be confirmed here. Everything works without it; invitations reach
            you as a link from an administrator.
          </p>
        ) : null}
        {!profile.emailVerified && mailDelivered ? (
          <Form method="post" className="inline">
            {result?.sent ? (
              <span role="status" className="badge badge-success">
                Sent — check your inbox
              </span>
            ) : null}
            {failed("resend")?.formError ? (
              <span role="alert" className="field-error">
                {failed("resend")!.formError}
              </span>
            ) : null}
            <SubmitButton className="btn btn-secondary btn-sm" pendingText="Sending…" name="intent" value="resend">
              Resend confirmation e-mail
            </SubmitButton>
          </Form>
        ) : null}
      </section>

      <section className="card" aria-labelledby="org-heading">
        <h2 id="org-heading">Organization</h2>
        <TableScroll label="Organization">
          <table className="table">
            <tbody>
              <tr>
                <th scope="row">Name</th>
                <td>{organization.name}</td>
              </tr>
              <tr>
                <th scope="row">Your role</th>
                <td style={{ textTransform: "capitalize" }}>{organization.role}</td>
              </tr>
              <tr>
                <th scope="row">Plan</th>
                <td>
                  <span className="badge badge-brand">{PLAN_NAMES[organization.plan]}</span>
                </td>
              </tr>
            </tbody>
          </table>
        </TableScroll>
      </section>

      <section className="card" aria-labelledby="data-heading">
        <h2 id="data-heading">Your data</h2>
        <p className="muted">A JSON file with your profile, projects you created, PRDs and versions, comments, memories and key metadata.</p>
        <a className="btn btn-secondary" href="/api/user/data-export" download>
          Download my data
        </a>
      </section>

      <section className="card danger-zone" aria-labelledby="delete-heading">
        <h2 id="delete-heading">Delete account</h2>
        <p>
          This permanently deletes your account, your personal keys, memories and notifications, and every organization where you are the only member. Projects
          you created in organizations with other members stay there. If you are the only owner of an organization with other members, make someone else an
          owner first.
        </p>
        <FormAlert state={deleteState} />
        <Form method="post" className="form" noValidate>
          <input type="hidden" name="intent" value="delete" />
          <Field label={`Type ${profile.email} to confirm`} name="confirmEmail" type="email" state={deleteState} autoComplete="off" required />
          <SubmitButton className="btn btn-danger" pendingText="Deleting…" name="intent" value="delete">
            Delete my account
          </SubmitButton>
        </Form>
      </section>
    </div>
  );
}
