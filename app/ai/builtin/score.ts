import { DIMENSIONS, type Dimension, type ScoreResult } from "../schemas";
import { analyze, label } from "./analysis";
import type { BuiltinContext } from "./contract";

/** The project score: the same measures as the coach, one evidence sentence per dimension. */
export function score(input: { prdContent: string }, ctx: BuiltinContext): ScoreResult {
  const a = analyze(input.prdContent, ctx);
  const breakdown = Object.fromEntries(DIMENSIONS.map((d) => [d, a.dimensions[d].score])) as Record<Dimension, number>;
  const feedback = Object.fromEntries(DIMENSIONS.map((d) => [d, `${label(d)} ${a.dimensions[d].score}/100: ${a.dimensions[d].evidence}`])) as Record<
    Dimension,
    string
  >;
  return { overallScore: a.overall, breakdown, feedback };
}
