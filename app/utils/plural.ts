/** Counted nouns for the interface ("1 member", "3 members", "1 reply", "2 replies"); safe in the browser. */

const rules = new Intl.PluralRules("en-US");

/** The noun for a count: `one` for 1, otherwise `other` (default: `one` + "s"). */
export const pluralWord = (count: number, one: string, other = `${one}s`) => (rules.select(count) === "one" ? one : other);

/** A count with its noun, the count grouped as in the rest of the interface: "1 project", "1,200 projects". */
export const plural = (count: number, one: string, other = `${one}s`) => `${count.toLocaleString("en-US")} ${pluralWord(count, one, other)}`;
