import type { BuiltinContext, QaPair } from "~/ai/builtin/contract";
import { builderTurn, firstQuestion } from "~/ai/builtin/interview";

/** Runs the offline builder's interview: each answer answers the question the previous turn asked. */
export function runInterview(ctx: BuiltinContext, answers: string[]) {
  const pairs: QaPair[] = [];
  const turns: ReturnType<typeof builderTurn>[] = [];
  let question = firstQuestion(ctx);
  for (const answer of answers) {
    const turn = builderTurn({ qaPairs: pairs, question, answer }, ctx);
    turns.push(turn);
    pairs.push({ question, answer });
    if (!turn.nextQuestion) break;
    question = turn.nextQuestion;
  }
  return { pairs, turns, next: question };
}

/** The body of the PRD section titled `title` (up to the next H2), or "". */
export const sectionOf = (prd: string, title: string) => prd.split(`## ${title}\n`)[1]?.split("\n## ")[0] ?? "";
