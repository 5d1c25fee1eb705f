import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as withHeaders } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { useState } from "react";
import { Field, FieldNotes, FormAlert, SubmitButton, Notice } from "~/components/forms";
import { isAdmin } from "~/domain/actor";
import { textOn } from "~/domain/branding/brand-style";
import { brandingUpdateSchema, MAX_LOGO_BYTES } from "~/domain/branding/branding.schema";
import { getBranding, removeLogo, updateBranding, uploadLogo } from "~/domain/branding/branding.server";
import { validationError } from "~/domain/errors";
import { assertSameOrigin } from "~/http/csrf.server";
import { readFlash, redirectWithNotice } from "~/http/ui/flash.server";
import { parseMultipart } from "~/http/api/multipart.server";
import { formFailure, formValues, requireUiActor } from "~/http/ui/ui.server";

export const meta: MetaFunction = () => [{ title: "Branding · Administration · PRD Studio" }];

/** #abc → #aabbcc, for <input type="color">. */
const sixDigit = (hex: string) => (/^#[0-9a-f]{3}$/i.test(hex) ? `#${[...hex.slice(1)].map((c) => c + c).join("")}` : hex).toLowerCase();

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if (!isAdmin(actor)) return { allowed: false as const };
  const [branding, { flash, headers }] = await Promise.all([getBranding(actor), readFlash(request)]);
  return withHeaders({ allowed: true as const, branding, flash, orgName: actor.org.name }, { headers });
}

const saved = async (message: string) => redirectWithNotice("/admin/branding", message);

export async function action({ request, context }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  if ((request.headers.get("Content-Type") ?? "").startsWith("multipart/form-data")) {
    try {
      assertSameOrigin(request);
      const { files } = await parseMultipart(request, { maxFileBytes: MAX_LOGO_BYTES, requiredFile: "file" });
      await uploadLogo(actor, files.file!.data);
      return saved("Logo uploaded.");
    } catch (error) {
      return formFailure(error, {}, [], { intent: "logo" });
    }
  }
  const values = await formValues(request);
  try {
    if (values.intent === "remove-logo") {
      await removeLogo(actor);
      return saved("Logo removed.");
    }
    if (values.intent === "logo-url") {
      try {
        const logo = (values.logo ?? "").trim();
        if (!logo) throw validationError("logo", "Enter the logo's https:// address");
        await updateBranding(actor, brandingUpdateSchema.parse({ logo }));
        return saved("Logo URL saved.");
      } catch (error) {
        return formFailure(error, values, [], { intent: "logo-url" });
      }
    }
    const input = brandingUpdateSchema.parse({
      primaryColor: values.primaryColor || undefined,
      accentColor: values.accentColor || undefined,
      companyName: values.companyName ?? "",
    });
    await updateBranding(actor, input);
    return saved("Branding saved.");
  } catch (error) {
    return formFailure(error, values, [], { intent: "colors" });
  }
}

export default function BrandingPage() {
  const data = useLoaderData<typeof loader>();
  const result = useActionData<typeof action>();
  const b = data.allowed ? data.branding : null;
  const [preview, setPreview] = useState({
    primaryColor: sixDigit(b?.primaryColor ?? "#4f46e5"),
    accentColor: sixDigit(b?.accentColor ?? "#0ea5e9"),
    companyName: b?.companyName ?? "",
  });
  if (!data.allowed || !b) return null;
  const state = result && "formError" in result ? result : null;
  const colorsState = state?.intent === "colors" ? state : null;
  const logoState = state?.intent === "logo" ? state : null;
  const logoUrlState = state?.intent === "logo-url" ? state : null;
  const notice = data.flash?.kind === "notice" ? data.flash.message : null;
  const colorInput = (name: "primaryColor" | "accentColor", label: string, hint: string) => {
    const id = `field-${name}`;
    const error = colorsState?.fieldErrors?.[name];
    return (
      <div className="field">
        <label htmlFor={id}>{label}</label>
        <input
          id={id}
          name={name}
          type="color"
          defaultValue={sixDigit(colorsState?.values?.[name] ?? b[name])}
          onChange={(e) => setPreview((p) => ({ ...p, [name]: e.target.value }))}
          aria-describedby={`${id}-hint${error ? ` ${id}-error` : ""}`}
          aria-invalid={error ? true : undefined}
        />
        <FieldNotes id={id} hint={hint} error={error} />
      </div>
    );
  };
  return (
    <div className="split-2" style={{ display: "grid", gap: 16, gridTemplateColumns: "minmax(0, 1fr) minmax(0, 320px)", alignItems: "start" }}>
      <div className="stack">
        <Notice message={notice} />
        <section className="card" aria-labelledby="colors-heading">
          <h2 id="colors-heading">Colours and name</h2>
          <FormAlert state={colorsState} />
          <Form
            method="post"
            className="form"
            noValidate
            onChange={(e) => {
              const t = e.target as HTMLInputElement;
              if (t.name === "companyName") setPreview((p) => ({ ...p, companyName: t.value }));
            }}
          >
            <input type="hidden" name="intent" value="colors" />
            <Field
              label="Company name"
              name="companyName"
              state={colorsState}
              defaultValue={b.companyName}
              hint="Shown in the sidebar, on shared pages and in e-mails. At most 100 characters."
            />
            {colorInput("primaryColor", "Primary colour", "Buttons, links and the e-mail header.")}
            {colorInput("accentColor", "Accent colour", "Highlights.")}
            <div>
              <SubmitButton pendingText="Saving…" className="btn btn-primary">
                Save branding
              </SubmitButton>
            </div>
          </Form>
        </section>
        <section className="card" aria-labelledby="logo-heading">
          <h2 id="logo-heading">Logo</h2>
          <FormAlert state={logoState} />
          <Form method="post" encType="multipart/form-data" className="form">
            <div className="field">
              <label htmlFor="logo-file">Logo image</label>
              <input
                id="logo-file"
                name="file"
                type="file"
                accept="image/png,image/jpeg,image/webp,image/gif,image/avif"
                required
                aria-describedby="logo-file-hint"
              />
              <FieldNotes
                id="logo-file"
                hint="PNG, JPEG, WebP, GIF or AVIF up to 2 MB (no SVG). It is scaled to at most 512 px and stored as PNG."
                error={logoState?.fieldErrors?.file}
              />
            </div>
            <div>
              <SubmitButton pendingText="Uploading…" className="btn btn-primary">
                Upload logo
              </SubmitButton>
            </div>
          </Form>
          <FormAlert state={logoUrlState} />
          <Form method="post" className="form" style={{ marginTop: 12 }} noValidate>
            <input type="hidden" name="intent" value="logo-url" />
            <Field
              label="Or a logo URL"
              name="logo"
              type="url"
              state={logoUrlState}
              defaultValue={b.logoUrl && /^https?:\/\//i.test(b.logoUrl) ? b.logoUrl : ""}
              placeholder="https://example.com/logo.png"
              hint="An http(s) address of a PNG, JPEG, WebP or GIF. Browsers show it from there; exports fetch it (at most 2 MB, private addresses refused) and leave the logo out when it cannot be used."
            />
            <div>
              <SubmitButton pendingText="Saving…" className="btn btn-secondary">
                Use this URL
              </SubmitButton>
            </div>
          </Form>
          {b.logoUrl ? (
            <Form method="post" className="inline" style={{ marginTop: 12 }}>
              <input type="hidden" name="intent" value="remove-logo" />
              <button type="submit" className="btn btn-secondary">
                Remove logo
              </button>
            </Form>
          ) : (
            <p className="muted">No logo yet: the PRD Studio mark is shown instead.</p>
          )}
        </section>
      </div>
      <section className="card" aria-labelledby="preview-heading" data-testid="branding-preview">
        <h2 id="preview-heading">Preview</h2>
        <div
          style={{
            background: preview.primaryColor,
            color: "#fff",
            borderRadius: 8,
            padding: "12px 14px",
            display: "flex",
            alignItems: "center",
            gap: 10,
            fontWeight: 700,
          }}
        >
          {b.logoUrl ? <img src={b.logoUrl} alt="Current logo" height={32} style={{ background: "#fff", borderRadius: 4 }} /> : null}
          <span>{preview.companyName || data.orgName}</span>
        </div>
        {/* The preview is a page as readers see it printed or in the light theme, so it keeps a light paper in dark mode too. */}
        <div style={{ background: "#ffffff", color: "#1c1f2e", borderRadius: 8, padding: "2px 12px 12px", marginTop: 12 }}>
          <p style={{ marginTop: 12 }}>
            A shared PRD with{" "}
            <a href="#preview-heading" style={{ color: preview.primaryColor }}>
              a link
            </a>{" "}
            and{" "}
            <span className="badge" style={{ background: preview.accentColor, color: textOn(preview.accentColor) }}>
              an accent
            </span>
            .
          </p>
          <button type="button" className="btn" style={{ background: preview.primaryColor }} tabIndex={-1} aria-hidden="true">
            A button
          </button>
        </div>
      </section>
    </div>
  );
}
