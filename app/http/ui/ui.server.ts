import { data, redirect, type AppLoadContext } from "@remix-run/node";
import { ZodError } from "zod/v4";
import { config } from "~/config.server";
import type { FormState } from "~/components/forms";
import type { Actor } from "~/domain/actor";
import { assertIpAllowed } from "~/domain/allowlist/allowlist.server";
import { AppError } from "~/domain/errors";
import { notePageActivity } from "~/domain/users/page-activity.server";
import { actorFromSession } from "~/domain/sessions/sessions.server";
import { asStorageError } from "~/ops/storage-errors.server";
import { mustReplay, replayToPrimary } from "~/ops/replay.server";
import { requestMeta } from "../context.server";
import { assertSameOrigin } from "../csrf.server";
import { readSessionId } from "../session.server";
import { formatBytes } from "~/utils/format";

/** Helpers for the HTML UI: page authentication and form handling. */

export async function getUiActor(request: Request, context: AppLoadContext): Promise<Actor | null> {
  const sid = await readSessionId(request);
  if (!sid) return null;
  const meta = requestMeta(request, context);
  return actorFromSession(sid, meta);
}

export async function requireUiActor(request: Request, context: AppLoadContext): Promise<Actor> {
  const actor = await getUiActor(request, context);
  if (!actor) {
    const url = new URL(request.url);
    const back = url.pathname + url.search;
    throw redirect(`/sign-in?redirectTo=${encodeURIComponent(back)}`);
  }
  try {
    await assertIpAllowed(actor);
  } catch (error) {
    if (error instanceof AppError) throw new Response(error.message, { status: error.status });
    throw error;
  }
  await notePageActivity(actor);
  return actor;
}

export async function requireAnonymous(request: Request, context: AppLoadContext) {
  if (await getUiActor(request, context)) throw redirect("/home");
}

const REDIRECT_BASE = "http://app.invalid";

/**
 * Only a path of this app. The target is resolved by the WHATWG URL parser
 * (as a browser will resolve the Location header) against a fixed origin and
 * kept only when the origin is unchanged: `//evil.example`, `/\\evil`,
 * `/\t/evil.example` (tabs and newlines are stripped by the parser) and
 * absolute URLs all fall back. What is returned is the parser's own
 * path + query + hash, so the browser sees exactly what was checked.
 */
export function safeRedirect(to: FormDataEntryValue | string | null | undefined, fallback = "/home") {
  if (!to || typeof to !== "string" || !to.startsWith("/")) return fallback;
  let url: URL;
  try {
    url = new URL(to, REDIRECT_BASE);
  } catch {
    return fallback;
  }
  if (url.origin !== REDIRECT_BASE) return fallback;
  const target = url.pathname + url.search + url.hash;
  // A path that itself starts with // would be read as a host once more.
  return target.startsWith("//") || target.startsWith("/\\") ? fallback : target;
}

export type FormValues = Record<string, string>;

const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];

/**
 * The posted form, within MAX_FORM_BODY_BYTES. The node server refuses
 * larger bodies and other types before Remix runs
 * (app/http/server/body-guard.server.ts); this repeats the checks that need
 * no reading, for callers that come another way (in-process tests, a
 * replayed request), and turns a body that cannot be read into a 4xx page
 * instead of a 500 with a stack.
 */
async function readForm(request: Request): Promise<FormData> {
  const type = (request.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
  if (!FORM_TYPES.includes(type)) throw new Response("This page takes a form (application/x-www-form-urlencoded or multipart/form-data)", { status: 415 });
  const limit = config().MAX_FORM_BODY_BYTES;
  const declared = Number(request.headers.get("Content-Length") ?? "NaN");
  if (Number.isFinite(declared) && declared > limit) throw new Response(`The form is larger than ${formatBytes(limit)}`, { status: 413 });
  try {
    return await request.formData();
  } catch (error) {
    const cause = error instanceof AppError ? error : (error as { cause?: unknown })?.cause;
    if (cause instanceof AppError && cause.status === 413) throw new Response(cause.message, { status: 413 });
    throw new Response("The form could not be read", { status: 400 });
  }
}

/** Reads a posted form (same-origin only) into plain string values. */
export async function formValues(request: Request): Promise<FormValues> {
  // On a LiteFS replica nothing is written: the post is replayed on the primary.
  if (mustReplay(request)) throw replayToPrimary();
  try {
    assertSameOrigin(request);
  } catch (error) {
    if (error instanceof AppError) throw new Response(error.message, { status: error.status });
    throw error;
  }
  const form = await readForm(request);
  const values: FormValues = {};
  for (const [key, value] of form) if (typeof value === "string") values[key] = value;
  return values;
}

/**
 * Turns a failed action into a 4xx page state: field errors next to their
 * fields, a form-level message, and the submitted values (minus secrets) so
 * the page re-renders them without JavaScript.
 */
export function formFailure(error: unknown, values: FormValues, secretFields: string[] = [], extra: { intent?: string } = {}) {
  const kept = Object.fromEntries(Object.entries(values).filter(([k]) => !secretFields.includes(k)));
  error = asStorageError(error);
  if (error instanceof ZodError) {
    const fieldErrors: Record<string, string> = {};
    for (const issue of error.issues) {
      const path = issue.path.map(String).join(".") || "form";
      fieldErrors[path] ??= issue.message;
    }
    return data<FormState>({ ...extra, fieldErrors, values: kept, formError: "Check the highlighted fields." }, { status: 400 });
  }
  if (error instanceof AppError) {
    const fieldErrors: Record<string, string> = {};
    for (const d of error.details ?? []) fieldErrors[d.path] ??= d.message;
    const formError = Object.keys(fieldErrors).length ? "Check the highlighted fields." : error.message;
    return data<FormState>({ ...extra, formError, fieldErrors, values: kept }, { status: error.status, headers: error.headers });
  }
  throw error;
}

/**
 * Runs a domain call for a page loader: NOT_FOUND and FORBIDDEN become the
 * matching HTTP responses so the error boundary shows the right page.
 */
export async function orPageError<T>(work: Promise<T>): Promise<T> {
  try {
    return await work;
  } catch (error) {
    if (error instanceof AppError && (error.status === 404 || error.status === 403 || error.status === 401)) {
      throw new Response(error.message, { status: error.status });
    }
    throw error;
  }
}
