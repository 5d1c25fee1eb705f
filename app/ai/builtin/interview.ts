import type { ChatMessage } from "../types";
import { FOLLOW_UP_PREFIX, type SectionPlan, firstQuestionOf, interviewOutline, mostImportant, readAnswers, targetOf } from "./answers";
import { bestTopic, planScore } from "./placement";
import { answerUnits } from "./answer-units";
import type { BuilderTurn, BuiltinContext, QaPair } from "./contract";
import { shorten, words } from "~/utils/md-doc";
import { proseSentences as sentences } from "~/ai/nlp/sentences";
import { isSettlingQuestion } from "./contradictions";
import { isMeasurable } from "./metrics";
import { isThin, isVague, quoteClause, roles } from "./phrases";

/**
 * The conversational builder's interview and the general chat answer.
 * The interview keeps one question per section of the outline, works out
 * which sections the answers cover, and asks next about the most important
 * open one; a thin answer gets one follow-up on the same topic.
 */

/** Answers after which the interview stops asking, however much is open. */
const MAX_ANSWERS = 8;
const MAX_TURNS = 12;

/**
 * The template's first question (or the generic one), unless the project
 * description or the current PRD (an import) already answers what it asks
 * about: then the most important section they leave open. The user is
 * never asked what they already wrote.
 */
export function firstQuestion(ctx: BuiltinContext): string {
  const first = firstQuestionOf(ctx);
  if (!ctx.projectDescription?.trim() && !ctx.document?.trim()) return first;
  const plans = interviewOutline(ctx);
  const reading = readAnswers([], plans, ctx);
  if (!reading.facts.length) return first;
  // The template's (or the generic) first question, unless what it asks about is already written down.
  const target = targetOf(first, plans, ctx);
  if (target >= 0 && !reading.covered[target]) return first;
  return mostImportant(plans.filter((p) => !p.derived && !reading.covered[p.index]))?.question ?? first;
}

const LEAD_INS: Record<string, string> = {
  problem: "That's a clear problem to build on:",
  evidence: "That's useful evidence:",
  users: "Helpful to know who this is for:",
  requirements: "Noted as a requirement:",
  stories: "That walk-through helps:",
  scope: "Useful boundary:",
  risks: "Good to flag that risk:",
  release: "Noted for the rollout:",
  business: "Noted for the business case:",
};

function leadIn(plan: SectionPlan | undefined, answer: string) {
  const id = plan ? bestTopic(answer, plan).id : "";
  // Measurable only with a metric and a number that has a baseline, a target or a date, not for any digit.
  if (id === "goals") return isMeasurable(answer) ? "Good, that's a measurable target:" : "Noted the goal (it needs a number and a date to be measurable):";
  return LEAD_INS[id] ?? "Thanks, noted:";
}

export function builderTurn(input: { qaPairs: QaPair[]; question: string; answer: string }, ctx: BuiltinContext): BuilderTurn {
  const plans = interviewOutline(ctx);
  const pairs = [...input.qaPairs, { question: input.question, answer: input.answer }];
  const reading = readAnswers(pairs, plans, ctx);
  const covered = plans.filter((p) => reading.covered[p.index]).map((p) => p.title);
  const remaining = plans.filter((p) => !reading.covered[p.index]).map((p) => p.title);
  const last = pairs.length - 1;
  const target = plans[reading.targets[last] ?? -1];
  const answer = input.answer.trim();
  // Every statement left out as an aside: nothing of this answer is in the PRD.
  const mine = reading.facts.filter((f) => f.answer === last);
  const offTopic = reading.asides.some((a) => a.answer === last) && !mine.length;
  // A first answer with nothing to compare it with is kept, but marked when it speaks to no section.
  const kept = mine.length > 0 && mine.every((f) => f.offTopic);
  const missed = Boolean(reading.missed[last]);
  const thin = isThin(answer) || offTopic || kept || missed;
  const written = reading.facts.filter((f) => f.answer === last);
  const landed = [...new Set(written.flatMap((f) => f.sections))].map((i) => plans[i]!);
  // The answer's first statement as the PRD will have it (talk and asides left out).
  const said = written[0]?.text ?? answerUnits(answer)[0] ?? answer;

  const asides = reading.asides.filter((a) => a.answer === last);
  const project = ctx.projectName?.trim() ? `**${ctx.projectName.trim()}**` : "this product";
  const leftOut = asides.length
    ? ` I left ${asides
        .slice(0, 2)
        .map((a) => `“${quoteClause(a.text, 80)}”`)
        .join(" and ")} out of the PRD: it doesn't seem to be about ${project}.`
    : "";
  const dropped = reading.retracted.filter((r) => r.answer === last);
  const takenOut = dropped.length
    ? `Taken out of the PRD: ${dropped
        .slice(0, 3)
        .map((r) => `“${quoteClause(r.text, 80)}”`)
        .join(", ")}.`
    : "";
  let ack: string;
  if (isSettlingQuestion(input.question)) ack = `Thanks, that settles it: “${quoteClause(answer, 120)}”. I'll write the draft that way.`;
  else if (takenOut && !written.some((f) => f.label !== "out")) ack = takenOut;
  else if (isVague(answer)) ack = "No problem if that isn't settled yet.";
  else if (offTopic && target) ack = `${leftOut.trim()} It doesn't answer the question about **${target.title}** yet.`;
  else if (asides.length && !landed.length) ack = leftOut.trim();
  else if (kept && target) ack = `I've kept “${quoteClause(answer)}”, but it doesn't seem to answer the question about **${target.title}** yet.`;
  else if (missed && target && landed.length)
    ack = `Noted under **${landed[0]!.title}**: “${quoteClause(said, 120)}”. That doesn't answer the question about **${target.title}** yet.`;
  else if (thin) ack = `“${quoteClause(answer)}” — noted.`;
  else {
    const home = landed[0] ?? target;
    const where = landed.length
      ? ` I'll use it in ${landed
          .slice(0, 2)
          .map((p) => `**${p.title}**`)
          .join(" and ")}.`
      : "";
    ack = `${takenOut ? `${takenOut} ` : ""}${leadIn(home, said)} “${quoteClause(said, 120)}”.${where}${leftOut}`;
  }

  const substantive = pairs.filter((p) => !isThin(p.answer)).length;
  const limit = substantive >= MAX_ANSWERS || pairs.length >= MAX_TURNS;
  // A contradiction is settled before anything else is asked: the draft must not say both.
  const contradiction = reading.contradictions[0];
  if (contradiction && !limit) return { response: `${ack}\n\n${contradiction.question}`, nextQuestion: contradiction.question, covered, remaining };

  // One follow-up on the same section when the answer is too thin to write it.
  if (thin && target && !target.derived && !reading.asked.has(target.index) && !limit) {
    const nextQuestion = `${FOLLOW_UP_PREFIX} “${target.title}”? ${target.hint}`;
    return { response: `${ack}\n\n${nextQuestion}`, nextQuestion, covered, remaining };
  }

  const open = plans.filter((p) => !p.derived && !reading.covered[p.index] && !reading.asked.has(p.index));
  const next = mostImportant(open);
  if (!next || limit) {
    const gaps = plans.filter((p) => !p.derived && !reading.covered[p.index]).map((p) => p.title);
    const rest = gaps.length
      ? ` Still thin: ${gaps.slice(0, 4).join(", ")}${gaps.length > 4 ? ` and ${gaps.length - 4} more` : ""}; the draft will list them as open questions.`
      : "";
    const response = `${ack}\n\nThat covers all the key parts of the PRD.${rest} Press “Generate PRD” to write the draft.`;
    return { response, nextQuestion: null, covered, remaining };
  }
  return { response: `${ack}\n\n${next.question}`, nextQuestion: next.question, covered, remaining };
}

const QUESTION_START = /^(?:how|what|why|when|where|who|which|should|shall|can|could|would|will|is|are|do|does|did|any|please)\b/i;

/** A grounded answer to the last user message: what it asks, which sections it touches, what to settle next. */
export function chat(input: { messages: ChatMessage[] }, ctx: BuiltinContext): string {
  const userMessages = input.messages.filter((m) => m.role === "user" && m.content.trim());
  const last = userMessages.at(-1)?.content.trim() ?? "";
  const project = ctx.projectName ? `**${ctx.projectName}**` : "your PRD";
  const plans = interviewOutline(ctx).filter((p) => !p.derived);
  if (!last || (words(last).length < 5 && /^(?:hi|hello|hey|thanks|thank you|yo|good (?:morning|afternoon|evening))\b/i.test(last))) {
    return [
      `Hello! Let's work on ${project}.`,
      `Sections in this outline: ${plans.map((p) => p.title).join(", ")}.`,
      `A good place to start: ${firstQuestionOf(ctx)}`,
    ].join("\n\n");
  }

  const asked = /\?\s*$/.test(last) || QUESTION_START.test(last);
  const out: string[] = [`**${asked ? "You asked" : "You said"}:** “${shorten(last, 280)}”`];

  const scored = plans
    .map((p) => ({ p, s: planScore(last, p) + (last.toLowerCase().includes(p.title.toLowerCase()) ? 3 : 0) }))
    .filter((x) => x.s > 0)
    .sort((a, b) => b.s - a.s || a.p.index - b.p.index)
    .slice(0, 3)
    .map((x) => x.p);
  if (scored.length) {
    const names = scored.map((p) => `**${p.title}**`).join(scored.length > 2 ? ", " : " and ");
    out.push(`This touches ${names}${ctx.template ? ` in the ${ctx.template.name} template` : ""}. To settle it, answer:`);
    out.push(scored.map((p) => `- ${p.title}: ${p.question}`).join("\n"));
  } else {
    out.push(`I can't tie this to one section yet. The outline has: ${plans.map((p) => p.title).join(", ")}. Which one should it go under?`);
  }

  const details: string[] = [];
  const numbers = last.match(/\$?\d[\d.,]*\s?%?/g)?.map((n) => n.trim()) ?? [];
  if (numbers.length) details.push(`- Figures you gave: ${[...new Set(numbers)].join(", ")}. Give each a baseline, a target and a timeframe.`);
  const people = roles(last);
  if (people.length) details.push(`- People involved: ${people.join(", ")}. Say what each of them needs.`);
  const earlier = earlierMention(
    userMessages.slice(0, -1).map((m) => m.content),
    last,
  );
  if (earlier) details.push(`- Earlier you said: “${shorten(earlier, 160)}”.`);
  for (const m of ctx.memories.filter((m) => m.memoryType === "decision" && overlap(m.content, last) >= 2).slice(0, 2)) {
    details.push(`- Already decided: ${shorten(m.content, 200)}`);
  }
  if (details.length) out.push(details.join("\n"));

  const steps = [
    scored[0]
      ? `Write the answer into **${scored[0].title}** in your own words, with names and numbers.`
      : "Pick the section this belongs to and write it there.",
    "Put anything you cannot decide yet under **Open Questions**, with who decides it.",
    "Run the PRD coach once the section is filled in to check it.",
  ];
  out.push(`**Next steps**\n${steps.map((s, i) => `${i + 1}. ${s}`).join("\n")}`);
  return out.join("\n\n");
}

const STOP = new Set(
  "the a an and or but of for to in on at by with from is are was were be it this that we our you your i my they them what how why when should can do does".split(
    " ",
  ),
);
const content = (t: string) => new Set(words(t).filter((w) => w.length > 2 && !STOP.has(w)));
/** Content words `a` shares with `b` (a text, or its content words worked out once). */
const overlap = (a: string, b: string | Set<string>) => {
  const wb = typeof b === "string" ? content(b) : b;
  return [...content(a)].filter((w) => wb.has(w)).length;
};

function earlierMention(earlier: string[], last: string) {
  let best: { text: string; n: number } | null = null;
  // The last message's words once, not once per earlier sentence (quadratic in a long conversation).
  const lastWords = content(last);
  for (const message of earlier) {
    for (const s of sentences(message)) {
      const n = overlap(s, lastWords);
      if (n >= 2 && (!best || n > best.n)) best = { text: s, n };
    }
  }
  return best?.text;
}
