import { describe, expect, it } from "vitest";
import { afterTodoMarker, bracketTodos, hasGivenThen, isLabelledPlaceholder, isStory } from "~/prd-rules/matchers";
import { ACCEPTANCE, isPlaceholder, placeholderPhrase, TABLE_SEPARATOR, todoMarkers } from "~/prd-rules/rules";
import * as old from "../support/prd-check-reference/rules";

/**
 * The PRD check's hand-written matchers (app/prd-rules/matchers.ts) and the
 * rewritten patterns in rules.ts answer what the regular expressions they
 * replace answered (issue 33), on random text made of the words and
 * characters those expressions look for.
 */

function random(seed: number) {
  let s = seed;
  return () => {
    s = (Math.imul(s, 1103515245) + 12345) >>> 0;
    return s / 2 ** 32;
  };
}

function samples(tokens: string[], count: number, seed: number, maxTokens = 16) {
  const next = random(seed);
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    let text = "";
    const length = Math.floor(next() * maxTokens);
    for (let j = 0; j < length; j++) text += tokens[Math.floor(next() * tokens.length)];
    out.push(text);
  }
  return out;
}

const SPACES = [" ", " ", " ", "  ", "\t", "\u00a0", "\u2028", "\n"];
const STORY_TOKENS = [
  ...SPACES,
  "as",
  "As",
  "AS",
  "a",
  "A",
  "an",
  "An",
  "i",
  "I",
  "want",
  "need",
  "would like",
  "can",
  "should be able",
  ",",
  ".",
  "x",
  "user",
  "bas",
  "is",
  "y".repeat(20),
  "z".repeat(39),
  "wants",
];
/** Text shaped like a story, each part sometimes missing or wrong. */
function storyLike(count: number, seed: number) {
  const next = random(seed);
  const pick = (list: string[]) => list[Math.floor(next() * list.length)]!;
  const spaces = () => Array.from({ length: Math.floor(next() * 4) }, () => pick(SPACES)).join("");
  const persona = () =>
    Array.from({ length: Math.floor(next() * 6) }, () => pick(["x", "user", " ", "  ", "y".repeat(20), "z".repeat(39), ",", ".", "a", "an "])).join("");
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const parts = [pick(["", "x ", "bas ", "as ", ", "]), pick(["as", "As", "AS", "a s"]), spaces()];
    if (next() < 0.4) parts.push(pick(["a", "an", "A", "An"]), spaces());
    parts.push(
      persona(),
      next() < 0.4 ? "," : "",
      spaces(),
      pick(["i", "I", "ii", "i"]),
      spaces(),
      pick(["want", "need", "would like", "can", "should be able", "wants", "x"]),
      pick(["", " to", "s", ".", " as a user, i want"]),
    );
    out.push(parts.join(""));
  }
  return out;
}
/** Text shaped like "Owner: to be agreed with the district.", each part sometimes missing or wrong. */
function labelledLike(count: number, seed: number) {
  const next = random(seed);
  const pick = (list: string[]) => list[Math.floor(next() * list.length)]!;
  const spaces = (max = 3) => Array.from({ length: Math.floor(next() * (max + 1)) }, () => pick(SPACES)).join("");
  const out: string[] = [];
  for (let i = 0; i < count; i++) {
    const parts = [
      pick([
        "",
        "x ",
        "x",
        "Owner:",
        "owner plan/&-1:",
        "1a:",
        "_a:",
        "| ",
        "(",
        ";",
        ": ",
        `${"a".repeat(40)}:`,
        `${"a".repeat(41)}:`,
        `${"a".repeat(42)}:`,
        "a b c:",
      ]),
      spaces(),
    ];
    parts.push(pick(["to be agreed", "TBC", "pending", "unknown", "not yet known", "to confirm", "to be", "tbcx"]));
    if (next() < 0.6)
      parts.push(
        spaces(2),
        pick(["with", "by", "With", "within"]),
        spaces(2),
        pick(["", "x", "the district", "a|b", "a,b", "x".repeat(58), "x".repeat(59), "x".repeat(60), "x".repeat(61), "x y"]),
      );
    parts.push(spaces(2), pick(["", ".", "!", "?"]), spaces(2), pick(["", "|", ";", ")", ",", "x", "(", " and more"]));
    out.push(parts.join(""));
  }
  return out;
}
const OLD_STORY = /\bas\s+(?:an?\s+)?[^,.]{1,80}?,?\s+i\s+(?:want|need|would like|can|should be able)\b/i;

describe("the matchers answer as the expressions did", () => {
  it("isStory", () => {
    let stories = 0;
    for (const text of [...samples(STORY_TOKENS, 20_000, 11, 20), ...storyLike(40_000, 21)]) {
      const expected = OLD_STORY.test(text);
      if (expected) stories++;
      expect(isStory(text), JSON.stringify(text)).toBe(expected);
    }
    expect(stories).toBeGreaterThan(500);
    for (const text of [
      "As a patient, I want to book",
      "As Dan, I want x",
      "as   i want",
      "as  , i want",
      "as a  i want",
      `as ${"y".repeat(80)} i want`,
      `as ${"y".repeat(81)} i want`,
      `as an ${"y".repeat(80)}, i can`,
      `as an${" ".repeat(79)}, i want`,
      `as a${" ".repeat(90)}y, i want`,
    ]) {
      expect(isStory(text), text).toBe(OLD_STORY.test(text));
    }
  });

  it("hasGivenThen", () => {
    const tokens = [...SPACES, "given", "Given", "then", "THEN", "thenx", "xgiven", "acceptance criteria", "a", ",", "\r"];
    const oldGivenThen = /acceptance criteria|\bgiven\b.*\bthen\b/i;
    for (const text of samples(tokens, 20_000, 12)) expect(hasGivenThen(text), JSON.stringify(text)).toBe(oldGivenThen.test(text));
  });

  it("bracketTodos and todoMarkers", () => {
    const tokens = [
      "[",
      "]",
      "[[",
      "placeholder",
      "Insert",
      "insert",
      "tbd",
      "TODO",
      "todo",
      "to be ",
      "to be",
      "add ",
      "Add",
      "here",
      "HERE",
      " ",
      "x",
      "???",
      "TBD",
      "Tbd",
      "FIXME",
      "XXX",
      "\n",
    ];
    const oldBrackets = /\[(?:placeholder|insert[^\]]*|tbd|todo|to be [^\]]*|add [^\]]*here)\]/gi;
    for (const text of samples(tokens, 20_000, 13)) {
      expect(bracketTodos(text), JSON.stringify(text)).toEqual(text.match(oldBrackets) ?? []);
      expect(todoMarkers(text), JSON.stringify(text)).toEqual(old.todoMarkers(text));
    }
  });

  it("afterTodoMarker", () => {
    const tokens = ["TODO", "tbd", "TBA", "FIXME", "XXX", "TODOs", " ", ":", ".", "!", "-", "\u2028", "\n", "a", "word", "\t"];
    const oldMarker = /^(?:TODO|TBD|TBA|FIXME|XXX)\b[\s:.!-]*(.*)$/i;
    for (const text of samples(tokens, 20_000, 14)) expect(afterTodoMarker(text), JSON.stringify(text)).toBe(oldMarker.exec(text)?.[1] ?? null);
  });

  it("isLabelledPlaceholder, placeholderPhrase and isPlaceholder", () => {
    const value =
      "(?:to be (?:agreed|confirmed|decided|determined|defined|written|done|added|discussed|clarified)|tbc|to confirm|to decide|to define|unknown|pending|not (?:yet )?(?:decided|defined|known|agreed))";
    const oldLabelled = new RegExp(`(?:^|[|;(]|\\b[A-Za-z][\\w /&-]{0,40}?:)\\s*${value}(?:\\s+(?:with|by)\\s+[^|;,.()]{1,60})?\\s*[.!]?\\s*(?=$|[|;),])`, "i");
    const sticky = new RegExp(value, "iy");
    const tokens = [
      ...SPACES,
      "Owner",
      "owner plan",
      "a",
      "1",
      "_",
      "&",
      "-",
      "/",
      ":",
      "|",
      ";",
      "(",
      ")",
      ",",
      ".",
      "!",
      "to be agreed",
      "TBC",
      "pending",
      "unknown",
      "not yet known",
      "to confirm",
      "with",
      "by",
      "the district",
      "x".repeat(30),
      "TODO",
      "**",
      "n/a",
      "none",
      "...",
      "--",
      "lorem ipsum",
      "[x]",
      "<y>",
      "priority",
      "is",
      "open question",
    ];
    let labelled = 0;
    for (const text of [...samples(tokens, 20_000, 15, 14), ...labelledLike(30_000, 25)]) {
      const expected = oldLabelled.test(text);
      if (expected) labelled++;
      expect(isLabelledPlaceholder(text, sticky), JSON.stringify(text)).toBe(expected);
      expect(placeholderPhrase(text), JSON.stringify(text)).toBe(old.placeholderPhrase(text));
      expect(isPlaceholder(text), JSON.stringify(text)).toBe(old.isPlaceholder(text));
    }
    expect(labelled).toBeGreaterThan(500);
  });

  it("ACCEPTANCE and TABLE_SEPARATOR", () => {
    const tokens = [...SPACES, "ac", "AC", "1", "23", ":", "given", "when", "then", "acceptance", "criteria", "-", "|", "x", "#", "*"];
    for (const text of samples(tokens, 20_000, 16)) {
      expect(ACCEPTANCE.test(text), JSON.stringify(text)).toBe(old.ACCEPTANCE.test(text));
      expect(TABLE_SEPARATOR.test(text), JSON.stringify(text)).toBe(old.TABLE_SEPARATOR.test(text));
    }
  });
});

describe("the matchers are linear on the shapes that backtracked", () => {
  const N = 200_000;
  const fill = (unit: string) => unit.repeat(Math.ceil(N / unit.length)).slice(0, N);
  const shapes: [string, () => unknown][] = [
    ["isStory: as + spaces", () => isStory(`As${" ".repeat(N)}x`)],
    ["isStory: as a + spaces", () => isStory(`As a${" ".repeat(N)}x`)],
    ["isStory: as as as … + spaces + i", () => isStory(`${"as ".repeat(30)}${" ".repeat(N)}i`)],
    ["hasGivenThen: given given …", () => hasGivenThen(fill("given "))],
    ["bracketTodos: [add [add …", () => bracketTodos(fill("[add "))],
    ["bracketTodos: [insert …", () => bracketTodos(fill("[insert "))],
    ["afterTodoMarker: TODO + dashes + U+2028", () => afterTodoMarker(`TODO${"-".repeat(N)}\u2028x`)],
    ["placeholderPhrase: Owner: tbc + spaces", () => placeholderPhrase(`Owner: tbc${" ".repeat(N)}x`)],
    ["placeholderPhrase: tbc with + spaces", () => placeholderPhrase(`Owner: tbc with${" ".repeat(N)}${"x".repeat(61)}y`)],
    ["isPlaceholder: lorem ipsum + spaces + U+2028", () => isPlaceholder(`lorem ipsum${" ".repeat(N)}\u2028x`)],
    ["isPlaceholder: dots", () => isPlaceholder(`${".".repeat(N)}x`)],
    ["ACCEPTANCE: ac + spaces", () => ACCEPTANCE.test(`ac${" ".repeat(N)}x`)],
    ["TABLE_SEPARATOR: spaces and pipes", () => TABLE_SEPARATOR.test(`${fill(" |")}x`)],
  ];
  // A matcher that backtracks again runs for minutes and fails by the test timeout; bench:prd-check measures the speed.
  it.each(shapes)("%s (200,000 characters) returns", (_name, run) => {
    expect(typeof run()).not.toBe("undefined");
  });
});
