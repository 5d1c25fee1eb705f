import type { Actor } from "~/domain/actor";
import { projectChatSchema } from "~/domain/builder/builder.schema";
import { getConversation, projectChat } from "~/domain/builder/conversation.server";

/**
 * The builder's interview, answered the way a product manager would: the
 * builder asks, and the seed gives the prepared answer on the topic the
 * question is about. When no prepared answer fits the question, the
 * interview stops there (the question stays open, as when someone
 * generates the PRD before answering everything).
 */

export type Topic =
  | "problem"
  | "users"
  | "goals"
  | "requirements"
  | "stories"
  | "scope"
  | "risks"
  | "release"
  | "dependencies"
  | "pricing"
  | "platforms"
  | "approach"
  | "data"
  | "quality"
  | "ux";

export type Answer = readonly [Topic, string];

/** What a question asks about, most specific first (a question may name several topics). */
const TOPIC_QUESTIONS: readonly (readonly [Topic, RegExp])[] = [
  ["users", /who the users are|primary users/i],
  ["ux", /how will people use it|empty, loading/i],
  ["stories", /step by step|key moments|walk me through/i],
  ["quality", /quality bars|security|access rules/i],
  ["pricing", /price|pricing|which plan/i],
  ["platforms", /platforms|devices|offline/i],
  ["approach", /approach|technique/i],
  ["data", /\bdata\b|evaluat|training/i],
  ["problem", /problem|pain|worth solving|should the ai do|can.t today|happens on the warehouse floor/i],
  ["goals", /metric|know this worked|success|measur/i],
  ["requirements", /must the product do|capabilit|requirement/i],
  ["scope", /in scope|leaving out|non-goal/i],
  ["risks", /go wrong|risk/i],
  ["dependencies", /depend/i],
  ["release", /release|roll ?out|launch|milestone/i],
  ["users", /\bwho\b|users|persona/i],
];

/** The index in `answers` of the answer to `question`, or -1 when none is on a topic it asks about. */
export function answerFor(question: string, answers: readonly Answer[]) {
  for (const [topic, pattern] of TOPIC_QUESTIONS) {
    if (!pattern.test(question)) continue;
    const i = answers.findIndex(([t]) => t === topic);
    if (i >= 0) return i;
  }
  return -1;
}

/** Answers the builder's questions until the prepared answers, or the questions, run out. */
export async function interview(author: Actor, projectId: string, answers: readonly Answer[]) {
  const left = [...answers];
  let question = (await getConversation(author, projectId)).nextQuestion;
  while (question) {
    const i = answerFor(question, left);
    if (i < 0) return;
    const [, message] = left.splice(i, 1)[0]!;
    question = (await projectChat(author, projectId, projectChatSchema.parse({ message }))).nextQuestion;
  }
}
