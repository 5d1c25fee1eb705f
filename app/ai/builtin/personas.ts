import { words } from "~/utils/md-doc";
import { persona, roles, singular, trimEnd } from "./phrases";
import { ROLE } from "./topics";

/**
 * The personas a user named, in their words and their order of importance
 * "Primary: front-desk receptionists. Secondary: patients, often
 * parents booking for children, and clinic owners." gives the receptionists
 * first, then patients (with "often parents booking for children" kept as a
 * note on them, not a persona of its own), then clinic owners. A short list
 * item that names a role ("dental hygienists") is a persona as written;
 * anything else gives the roles it mentions.
 */

export interface Persona {
  /** As the user wrote it ("front-desk receptionists"). */
  name: string;
  primary: boolean;
  /** An aside the user attached ("often parents booking for children"). */
  note?: string;
}

const LABELLED =
  /^(primary|main|core|secondary|tertiary|also|other|users?|personas?|audiences?|buyers?|who)(?:\s+(?:users?|personas?|audiences?))?\s*:\s*(.+)$/i;
const PRIMARY = /^(?:primary|main|core)$/i;
const ASIDE = /^(?:often|usually|mostly|mainly|typically|including|especially|e\.g\.?|such as|like|many of them|some of them|sometimes)\b/i;
const FINITE = /\b(?:is|are|was|were|need|needs|want|wants|has|have|use|uses|do|does|can|will|should|must|spend|spends|get|gets)\b/i;
const hasRole = (t: string) => new RegExp(ROLE.source, "i").test(t);

/** "a, often b, and c" → ["a", "often b", "c"]; "x and y" splits only when both name a role. */
/**
 * The parts of a list as written: split at commas and semicolons that are
 * not inside brackets ("admins (IT, security)") and not between digits
 * ("2,600 bookings"), a leading "and"/"or" dropped from each part.
 */
function topLevelParts(text: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let start = 0;
  const isDigit = (c: string | undefined) => c !== undefined && c >= "0" && c <= "9";
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (c === "(" || c === "[") depth++;
    else if ((c === ")" || c === "]") && depth > 0) depth--;
    else if ((c === "," || c === ";") && depth === 0 && !(c === "," && isDigit(text[i - 1]) && isDigit(text[i + 1]))) {
      parts.push(text.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(text.slice(start));
  return parts.map((part) => part.trim().replace(/^(?:and|or)\s+/i, ""));
}

function listParts(text: string): string[] {
  return topLevelParts(trimEnd(text))
    .flatMap((part) => {
      const halves = part.split(/(?<!\s)\s+(?:and|or|&)\s+/);
      return halves.length > 1 && halves.every(hasRole) ? halves : [part];
    })
    .map((p) => p.trim())
    .filter(Boolean);
}

const key = (name: string) =>
  singular(
    name
      .toLowerCase()
      .replace(/(?<!\s)\s*\(.*$/, "")
      .split(/\s+/)
      .at(-1) ?? "",
  ) +
  "|" +
  name.toLowerCase().split(/\s+/).slice(0, -1).join(" ");

/** Whether a line names personas under a label ("Primary: …", "Users: …"). */
export const isPersonaLabelLine = (text: string) => LABELLED.test(trimEnd(text));

export function namedPersonas(texts: string[]): Persona[] {
  const out: Persona[] = [];
  const seen = new Set<string>();
  const add = (name: string, primary: boolean) => {
    const clean = trimEnd(name.replace(/^(?:the|our|all|some)\s+/i, ""));
    if (words(clean).length < 1) return;
    if (ASIDE.test(clean) && out.length) {
      const last = out.at(-1)!;
      last.note = last.note ? `${last.note}; ${clean}` : clean;
      return;
    }
    const k = key(clean);
    if (seen.has(k)) {
      if (primary) out.find((p) => key(p.name) === k)!.primary = true;
      return;
    }
    seen.add(k);
    out.push({ name: clean, primary });
  };
  for (const raw of texts) {
    const text = trimEnd(raw);
    const labelled = LABELLED.exec(text);
    if (labelled) {
      for (const part of listParts(labelled[2]!)) add(part, PRIMARY.test(labelled[1]!));
      continue;
    }
    // A short list item that names a role is a persona as written ("patients booking for their children").
    if (words(text).length <= 6 && hasRole(text.split(/\s+/).slice(0, 3).join(" ")) && !FINITE.test(text)) {
      add(text, false);
      continue;
    }
    for (const r of roles(text)) add(r, false);
  }
  // The primary persona leads; otherwise the user's order stands.
  return [...out.filter((p) => p.primary), ...out.filter((p) => !p.primary)];
}

/** "front-desk receptionists (primary), patients (often parents booking for children), clinic owners". */
export function personaLine(personas: Persona[]) {
  return personas
    .map((p) => {
      const notes = [...(p.primary ? ["primary"] : []), ...(p.note ? [p.note] : [])];
      return notes.length ? `${p.name} (${notes.join("; ")})` : p.name;
    })
    .join(", ");
}

/** One persona as the subject of a story: singular, lower-case ("front-desk receptionist"). */
export function storyPersona(p: Persona | string) {
  const name = typeof p === "string" ? p : p.name;
  const head = persona(name);
  // Keep the user's qualifiers before the role noun ("front-desk receptionists" → "front-desk receptionist").
  const m = new RegExp(`^(.*?)\\b(${ROLE.source})\\b`, "i").exec(name);
  if (m) {
    const lead = m[1]!.trim();
    const noun = singular(m[2]!.toLowerCase());
    return `${lead ? `${lead.replace(/^[A-Z](?![A-Z])/, (c) => c.toLowerCase())} ` : ""}${noun}`;
  }
  return head ?? name.toLowerCase();
}
