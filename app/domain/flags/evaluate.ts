import crypto from "node:crypto";
import type { FlagRules } from "./flags.schema";

export interface FlagDefinition {
  key: string;
  enabled: boolean;
  rolloutPercentage: number | null;
  rules: FlagRules;
}

export interface FlagSubject {
  userId: string | null;
  orgId: string | null;
  plan: string | null;
}

/** 0–99, the same for a flag and an organization every time (whole organizations roll out together). */
export function rolloutBucket(key: string, orgId: string) {
  return crypto.createHash("sha256").update(`${key}:${orgId}`).digest().readUInt32BE(0) % 100;
}

/**
 * Evaluation order: user deny/allow, organization deny/allow, plan list
 * (a caller on another plan is off), percentage roll-out (stable bucket of
 * key + organization), then the flag's default `enabled`.
 */
export function evaluateFlag(flag: FlagDefinition, subject: FlagSubject): boolean {
  const { rules } = flag;
  if (subject.userId) {
    if (rules.denyUserIds.includes(subject.userId)) return false;
    if (rules.allowUserIds.includes(subject.userId)) return true;
  }
  if (subject.orgId) {
    if (rules.denyOrgIds.includes(subject.orgId)) return false;
    if (rules.allowOrgIds.includes(subject.orgId)) return true;
  }
  if (rules.plans.length && (!subject.plan || !rules.plans.includes(subject.plan))) return false;
  if (flag.rolloutPercentage !== null && subject.orgId) {
    return rolloutBucket(flag.key, subject.orgId) < flag.rolloutPercentage;
  }
  return flag.enabled;
}
