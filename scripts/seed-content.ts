/** Deterministic, varied text for seeded projects (names, descriptions, PRDs). */
import type { Priority, ProjectStatus } from "../app/domain/projects/projects.schema";
import { type Rng, pick, chance, cap } from "./seed-random";
import { VERBS, QUALIFIERS, NOUNS, PERSONAS, TECH, METRICS, RISKS, ACTIONS, OBJECTS, CONSTRAINTS, SYLLABLES } from "./seed-words";

import { AREAS } from "./seed-areas";

export { AREAS };
export { chance, mulberry32, pick, weighted } from "./seed-random";

/** Internal codenames and customer names: the long tail of rare words a real index has. */
function codename(rng: Rng) {
  const n = 2 + Math.floor(rng() * 2);
  return cap(Array.from({ length: n }, () => pick(rng, SYLLABLES)).join(""));
}

export function projectName(rng: Rng) {
  if (chance(rng, 0.25)) return `Project ${codename(rng)}: ${baseName(rng)}`;
  return baseName(rng);
}

function baseName(rng: Rng) {
  const area = pick(rng, AREAS);
  const shape = rng();
  if (shape < 0.35) return `${pick(rng, VERBS)} ${area}`;
  if (shape < 0.6) return `${cap(area)} ${pick(rng, QUALIFIERS)}`;
  if (shape < 0.8) return `${pick(rng, VERBS)} ${area} ${pick(rng, QUALIFIERS)}`;
  return `${cap(area)}: better ${pick(rng, NOUNS)} for ${pick(rng, PERSONAS)}`;
}

function sentence(rng: Rng, area: string) {
  const templates = [
    () => `${cap(pick(rng, PERSONAS))} struggle with ${area} today, which hurts ${pick(rng, NOUNS)}.`,
    () => `We want to improve ${pick(rng, NOUNS)} of ${area} by ${5 + Math.floor(rng() * 40)}% this quarter.`,
    () => `The current ${area} flow depends on ${pick(rng, TECH)} and a manual step owned by ${pick(rng, PERSONAS)}.`,
    () => `Success is measured by ${pick(rng, METRICS)} and ${pick(rng, METRICS)}.`,
    () => `The main risk is ${pick(rng, RISKS)}; we mitigate it with a staged rollout behind a feature flag.`,
    () => `Integrate ${area} with ${pick(rng, AREAS)} so that ${pick(rng, PERSONAS)} see one consistent view.`,
    () => `Research with ${3 + Math.floor(rng() * 20)} ${pick(rng, PERSONAS)} showed that ${pick(rng, NOUNS)} matters more than speed.`,
    () => `Out of scope: changes to ${pick(rng, AREAS)} and ${pick(rng, AREAS)}.`,
    () => `Use ${pick(rng, TECH)} for storage and ${pick(rng, TECH)} for delivery; keep ${pick(rng, NOUNS)} in mind.`,
    () => `Users must be able to ${pick(rng, ACTIONS)} ${pick(rng, OBJECTS)} ${pick(rng, CONSTRAINTS)}.`,
    () => `The system should ${pick(rng, ACTIONS)} ${pick(rng, OBJECTS)} automatically when ${pick(rng, OBJECTS)} change.`,
    () => `Admins can ${pick(rng, ACTIONS)} and ${pick(rng, ACTIONS)} ${pick(rng, OBJECTS)} in bulk ${pick(rng, CONSTRAINTS)}.`,
    () => `${cap(pick(rng, PERSONAS))} asked us to ${pick(rng, ACTIONS)} ${pick(rng, OBJECTS)} from the ${area} screen.`,
    () => `${codename(rng)} Inc. and ${codename(rng)} Ltd. requested this in ticket SUP-${1000 + Math.floor(rng() * 90_000)}.`,
  ];
  return pick(rng, templates)();
}

export function description(rng: Rng, area: string) {
  if (chance(rng, 0.1)) return "";
  const n = 1 + Math.floor(rng() * 3);
  return Array.from({ length: n }, () => sentence(rng, area)).join(" ");
}

export function prdContent(rng: Rng, name: string, area: string) {
  const para = (n: number) => Array.from({ length: n }, () => sentence(rng, area)).join(" ");
  const list = (n: number, make: () => string) => Array.from({ length: n }, () => `- ${make()}`).join("\n");
  const sections = [
    `# ${name}`,
    `## Overview\n\n${para(3 + Math.floor(rng() * 3))}`,
    `## Problem\n\n${para(2 + Math.floor(rng() * 4))}`,
    `## Goals\n\n${list(3 + Math.floor(rng() * 3), () => `Improve ${pick(rng, NOUNS)} for ${pick(rng, PERSONAS)}`)}`,
    `## User stories\n\n${list(3 + Math.floor(rng() * 5), () => `As one of the ${pick(rng, PERSONAS)}, I want ${area} to support ${pick(rng, AREAS)} so that I save time.`)}`,
    `## Requirements\n\n${list(4 + Math.floor(rng() * 6), () => sentence(rng, area))}`,
    `## Success metrics\n\n${list(2 + Math.floor(rng() * 3), () => `${cap(pick(rng, METRICS))}: +${2 + Math.floor(rng() * 30)}%`)}`,
    `## Risks\n\n${list(2 + Math.floor(rng() * 3), () => cap(pick(rng, RISKS)))}`,
  ];
  if (chance(rng, 0.3)) sections.push(`## Technical notes\n\n${para(2 + Math.floor(rng() * 4))}`);
  return sections.join("\n\n");
}

export const STATUS_WEIGHTS: readonly (readonly [ProjectStatus, number])[] = [
  ["DRAFT", 25],
  ["IN_PROGRESS", 22],
  ["READY_FOR_PRD", 8],
  ["IN_REVIEW", 12],
  ["APPROVED", 10],
  ["COMPLETED", 15],
  ["ARCHIVED", 8],
];
export const PRIORITY_WEIGHTS: readonly (readonly [Priority | null, number])[] = [
  [null, 15],
  ["low", 25],
  ["medium", 35],
  ["high", 18],
  ["urgent", 7],
];
