import { z } from "zod/v4";
import { formBoolean } from "../form-fields";

/** When the survey is due (docs/flags-and-feedback.md). */
export const NPS_RULES = {
  /** Days since sign-up before the first survey... */
  minAccountAgeDays: 7,
  /** ...or this many projects created, whichever comes first. */
  minProjects: 3,
  /** After an answer, ask again after this many days. */
  answerIntervalDays: 90,
  /** "Not now" postpones by this many days. */
  dismissDays: 30,
};

const emptyToUndefined = (v: unknown) => (v === "" || v === null ? undefined : v);

export const npsSchema = z.object({
  score: z.preprocess(
    emptyToUndefined,
    z.coerce
      .number({ error: "Pick a score from 0 to 10" })
      .int("Pick a score from 0 to 10")
      .min(0, "Pick a score from 0 to 10")
      .max(10, "Pick a score from 0 to 10")
      .optional(),
  ),
  comment: z.preprocess(emptyToUndefined, z.string().trim().max(2000, "Keep the comment under 2000 characters").optional()),
  dismissed: formBoolean.optional(),
});
export type NpsInput = z.infer<typeof npsSchema>;
