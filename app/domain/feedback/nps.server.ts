import { db } from "~/db.server";
import { newId, nowIso } from "~/utils/ids.server";
import type { Actor } from "../actor";
import { validationError } from "../errors";
import { NPS_RULES, type NpsInput } from "./nps.schema";

const DAY = 24 * 3600_000;

function presentResponse(row: { id: string; score: number | null; comment: string | null; dismissed: number; createdAt: string }) {
  return { id: row.id, score: row.score, comment: row.comment, dismissed: row.dismissed === 1, createdAt: row.createdAt };
}

/**
 * Due when the user signed up at least 7 days ago or created 3 projects, has
 * not answered in the last 90 days and has not pressed "Not now" in the last 30.
 */
export async function npsStatus(actor: Actor, now = new Date()) {
  const [user, projects, lastAnswer, lastDismissal] = await Promise.all([
    db.selectFrom("users").select("createdAt").where("id", "=", actor.user.id).executeTakeFirst(),
    db
      .selectFrom("projects")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("createdById", "=", actor.user.id)
      .executeTakeFirst(),
    db
      .selectFrom("npsResponses")
      .select(["id", "score", "comment", "dismissed", "createdAt"])
      .where("userId", "=", actor.user.id)
      .where("dismissed", "=", 0)
      .orderBy("createdAt", "desc")
      .limit(1)
      .executeTakeFirst(),
    db
      .selectFrom("npsResponses")
      .select("createdAt")
      .where("userId", "=", actor.user.id)
      .where("dismissed", "=", 1)
      .orderBy("createdAt", "desc")
      .limit(1)
      .executeTakeFirst(),
  ]);
  const t = now.getTime();
  const since = (iso: string | undefined) => (iso ? t - Date.parse(iso) : Infinity);
  const eligible = since(user?.createdAt) >= NPS_RULES.minAccountAgeDays * DAY || Number(projects?.n ?? 0) >= NPS_RULES.minProjects;
  const due = eligible && since(lastAnswer?.createdAt) >= NPS_RULES.answerIntervalDays * DAY && since(lastDismissal?.createdAt) >= NPS_RULES.dismissDays * DAY;
  return {
    due,
    lastResponse: lastAnswer ? { score: lastAnswer.score!, comment: lastAnswer.comment, createdAt: lastAnswer.createdAt } : null,
  };
}

/** Records an answer (score 0–10, optional comment) or a dismissal ({dismissed: true}). */
export async function submitNps(actor: Actor, input: NpsInput) {
  const dismissed = input.dismissed === true;
  if (!dismissed && input.score === undefined) throw validationError("score", "Pick a score from 0 to 10");
  const row = {
    id: newId(),
    userId: actor.user.id,
    orgId: actor.org.id,
    score: dismissed ? null : input.score!,
    comment: dismissed ? null : (input.comment ?? null),
    dismissed: dismissed ? 1 : 0,
    createdAt: nowIso(),
  };
  await db.insertInto("npsResponses").values(row).execute();
  return presentResponse(row);
}
