import { z } from "zod/v4";
import {
  changePasswordSchema,
  forgotPasswordSchema,
  registerSchema,
  resendVerificationSchema,
  resetPasswordSchema,
  signInSchema,
  verifyEmailSchema,
} from "~/domain/auth/auth.schema";
import { contract } from "../contract";
import { accountShape, success } from "./shapes";

const tag = "Authentication";

export const register = contract({
  method: "POST",
  path: "/api/auth/register",
  tag,
  summary: "Create an account",
  description:
    "Creates the user and signs them in (session cookie). Without `inviteToken` a personal organization is created with the user as owner; with it the user joins the inviting organization.",
  auth: "public",
  body: registerSchema,
  successStatus: 201,
  response: accountShape,
  errors: ["VALIDATION_ERROR", "WEAK_PASSWORD", "EMAIL_TAKEN", "INVALID_TOKEN", "TOKEN_EXPIRED", "RATE_LIMITED"],
});

export const signIn = contract({
  method: "POST",
  path: "/api/auth/sign-in",
  tag,
  summary: "Sign in with e-mail and password",
  description: "Sets the session cookie. Five failures within 30 minutes lock the account for 15 minutes (423 with Retry-After).",
  auth: "public",
  body: signInSchema,
  response: accountShape,
  errors: ["VALIDATION_ERROR", "INVALID_CREDENTIALS", "ACCOUNT_LOCKED", "RATE_LIMITED"],
});

export const signOut = contract({
  method: "POST",
  path: "/api/auth/sign-out",
  tag,
  summary: "Sign out",
  description: "Ends the current session and clears the cookie. Answers 200 even without a session.",
  auth: "optional",
  response: success,
});

export const me = contract({
  method: "GET",
  path: "/api/auth/me",
  tag,
  summary: "The signed-in user and current organization",
  auth: "user",
  response: accountShape,
});

export const forgotPassword = contract({
  method: "POST",
  path: "/api/auth/forgot-password",
  tag,
  summary: "Send a password reset link",
  description: "Always answers 200, whether or not the e-mail has an account.",
  auth: "public",
  body: forgotPasswordSchema,
  response: success.extend({ message: z.string() }),
  errors: ["VALIDATION_ERROR", "RATE_LIMITED"],
});

export const resetPassword = contract({
  method: "POST",
  path: "/api/auth/reset-password",
  tag,
  summary: "Choose a new password with a reset token",
  description: "The token is single-use and valid for one hour. Every session of the user is signed out.",
  auth: "public",
  body: resetPasswordSchema,
  response: success,
  errors: ["VALIDATION_ERROR", "WEAK_PASSWORD", "INVALID_TOKEN", "TOKEN_EXPIRED", "RATE_LIMITED"],
});

export const changePassword = contract({
  method: "POST",
  path: "/api/auth/change-password",
  tag,
  summary: "Change the password of the signed-in user",
  description: "Needs a session (not an API key). Other sessions are signed out.",
  auth: "user",
  body: changePasswordSchema,
  response: success,
  errors: ["VALIDATION_ERROR", "WEAK_PASSWORD", "UNAUTHORIZED", "FORBIDDEN", "CSRF_FAILED"],
});

export const verifyEmail = contract({
  method: "GET",
  path: "/api/auth/verify-email",
  tag,
  summary: "Confirm an e-mail address",
  auth: "public",
  query: verifyEmailSchema,
  writesOnGet: true,
  response: z.object({ verified: z.boolean() }),
  errors: ["VALIDATION_ERROR", "INVALID_TOKEN", "TOKEN_EXPIRED"],
});

export const resendVerification = contract({
  method: "POST",
  path: "/api/auth/resend-verification",
  tag,
  summary: "Send a new verification link",
  description: "Always answers 200 (no e-mail enumeration).",
  auth: "public",
  body: resendVerificationSchema,
  response: success.extend({ message: z.string() }),
  errors: ["VALIDATION_ERROR", "RATE_LIMITED"],
});
