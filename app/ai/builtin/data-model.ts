import { camel, pascal, singular } from "./phrases";

/**
 * The data model a technical spec may propose: only records and
 * fields the requirements mention, each traced to its requirement. A field
 * is named by the words "the confirmation status beside each booking"
 * (booking.confirmationStatus), "patients who opted out" (patient.optedOut)
 * or "the patient's phone number" (patient.phoneNumber). Nothing else is
 * proposed: no id/createdAt boilerplate, no record without a field.
 */

export interface ModelField {
  name: string;
  /** The requirement that names it. */
  source: string;
}
export interface ModelEntity {
  name: string;
  fields: ModelField[];
}

/** Words that name a view of records or a quantity, not a field ("the list of invoices"). */
const NOT_FIELD =
  /^(?:list|set|group|batch|summary|report|file|csv|pdf|copy|export|view|page|screen|dashboard|number|count|total|rest|kind|type|way|most|all|none|one|part)$/i;
/** Times and the product itself are not records. */
const NOT_RECORD = /^(?:day|week|month|year|quarter|today|time|hour|minute|product|app|system|user|team)$/i;
const LEAD = /^(?:the|a|an|its|their|each|every|all|any|some|his|her)\s+/i;
const LINK = "(?:of|for|beside|next to|on|per|in)";
const DET = "(?:each|every|the|a|an|all)";

function clean(phrase: string) {
  let p = phrase.trim().toLowerCase();
  while (LEAD.test(p)) p = p.replace(LEAD, "");
  const ws = p.split(/\s+/).filter((w) => /^[a-z][a-z-]*$/.test(w));
  return ws.length && ws.length <= 3 ? ws.join(" ") : null;
}

export function dataModel(requirements: string[], _entities: string[]): ModelEntity[] {
  const byName = new Map<string, ModelEntity>();
  const add = (entity: string, field: string | null, source: string) => {
    if (!field || NOT_FIELD.test(field)) return;
    const e = singular(entity.toLowerCase());
    if (NOT_RECORD.test(e)) return;
    const name = camel(field);
    if (!name || name.toLowerCase() === pascal(e).toLowerCase()) return;
    const rec = byName.get(e) ?? { name: pascal(e), fields: [] };
    if (!rec.fields.some((f) => f.name === name)) rec.fields.push({ name, source });
    byName.set(e, rec);
  };
  for (const r of requirements) {
    // "the confirmation status beside each booking", "the phone number of the patient"
    for (const m of r.matchAll(new RegExp(`\\b(?:the|a|an)\\s+((?:[a-z-]+\\s+){0,2}[a-z-]+)\\s+${LINK}\\s+${DET}\\s+([a-z-]+)`, "gi"))) {
      add(m[2]!, clean(m[1]!), r);
    }
    // "patients who opted out"
    for (const m of r.matchAll(/\b(?<![a-z-])([a-z-]+s)\s+(?:who|that)\s+((?:have\s+|has\s+)?[a-z]+(?:\s+(?:out|in|up|back))?)\b/gi))
      add(m[1]!, clean(m[2]!.replace(/^(?:have|has)\s+/i, "")), r);
    // "the patient's phone number"
    for (const m of r.matchAll(/\b(?<![a-z-])([a-z-]+)['’]s\s+([a-z-]+(?:\s+(?!as\b|to\b|for\b|in\b|on\b|by\b|and\b|or\b)[a-z-]+)?)/gi))
      add(m[1]!, clean(m[2]!), r);
  }
  return [...byName.values()];
}
