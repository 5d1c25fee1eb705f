import { z } from "zod/v4";

/** Input schemas shared by the /api routes and the UI forms. */

export const email = z
  .string({ error: "E-mail is required" })
  .trim()
  .min(1, "E-mail is required")
  .max(254)
  .pipe(z.email({ error: "Enter a valid e-mail address" }));

// Strength is checked by the domain (400 WEAK_PASSWORD), not here.
const password = z.string({ error: "Password is required" }).min(1, "Password is required").max(200);

export const registerSchema = z.object({
  name: z.string({ error: "Name is required" }).trim().min(1, "Name is required").max(100),
  email,
  password,
  timezone: z.string().trim().max(64).optional(),
  inviteToken: z.string().trim().min(1).max(200).optional(),
});
export type RegisterInput = z.infer<typeof registerSchema>;

export const signInSchema = z.object({ email, password });
export type SignInInput = z.infer<typeof signInSchema>;

export const forgotPasswordSchema = z.object({ email });

export const resetPasswordSchema = z
  .object({
    token: z.string({ error: "Token is required" }).min(1, "Token is required").max(200),
    password,
    confirmPassword: z.string({ error: "Confirm the password" }).min(1, "Confirm the password").max(200),
  })
  .refine((v) => v.password === v.confirmPassword, {
    path: ["confirmPassword"],
    message: "Passwords do not match",
  });
export type ResetPasswordInput = z.infer<typeof resetPasswordSchema>;

export const changePasswordSchema = z.object({
  currentPassword: z.string({ error: "Current password is required" }).min(1, "Current password is required").max(200),
  newPassword: z.string({ error: "New password is required" }).min(1, "New password is required").max(200),
});
export type ChangePasswordInput = z.infer<typeof changePasswordSchema>;

export const verifyEmailSchema = z.object({
  token: z.string({ error: "Token is required" }).min(1, "Token is required").max(200),
});

export const resendVerificationSchema = z.object({ email });
