import type { AppLoadContext } from "@remix-run/node";
import { Authenticator } from "remix-auth";
import { FormStrategy } from "remix-auth-form";
import { signInSchema } from "~/domain/auth/auth.schema";
import { signIn } from "~/domain/auth/auth.server";
import { requestMeta } from "../context.server";

type SignInResult = Awaited<ReturnType<typeof signIn>>;

// remix-auth v4 keeps no session of its own: the strategy verifies the form
// with the domain's signIn, and the route commits our session cookie.
const contexts = new WeakMap<Request, AppLoadContext>();

export const authenticator = new Authenticator<SignInResult>();

authenticator.use(
  new FormStrategy(async ({ form, request }) => {
    const input = signInSchema.parse({ email: form.get("email") ?? "", password: form.get("password") ?? "" });
    return signIn(input, requestMeta(request, contexts.get(request)));
  }),
  "form",
);

export function authenticateForm(request: Request, context: AppLoadContext) {
  contexts.set(request, context);
  return authenticator.authenticate("form", request);
}
