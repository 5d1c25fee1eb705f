import { DIMENSION_LABELS } from "../schemas";

/** The scoring scale shared by the coach review and the project score. */
export const DIMENSIONS_TEXT = Object.entries(DIMENSION_LABELS)
  .map(([key, label]) => `${key} (${label})`)
  .join(", ");

export const SCALE =
  "Scores are integers from 0 to 100: 90+ ready to build, 70–89 solid with gaps, 50–69 needs work, below 50 a draft. Judge only what is written.";
