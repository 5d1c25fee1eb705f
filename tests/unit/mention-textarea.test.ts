// @vitest-environment jsdom
import { act, createElement } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { matchCandidates, mentionQuery } from "~/components/comments/mention-query";
import { MentionTextarea } from "~/components/comments/mention-textarea";

/** The `@` suggestions of the comment boxes: what counts as a mention being typed, and the listbox in the browser (jsdom). */

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const PEOPLE = [
  { id: "ada", name: "Ada Lovelace", email: "ada@example.com" },
  { id: "alan", name: "Alan Turing", email: "alan@example.com" },
  { id: "zoe", name: "Zoë Ångström", email: "zoe@example.com" },
  { id: "grace", name: "Grace Hopper", email: "amazing@example.com" },
];

describe("mentionQuery and matchCandidates", () => {
  it("reads the @name being typed at the caret", () => {
    expect(mentionQuery("Hi @Ad", 6)).toEqual({ start: 3, text: "Ad" });
    expect(mentionQuery("@Ada Lo", 7)).toEqual({ start: 0, text: "Ada Lo" });
    expect(mentionQuery("(@zo", 4)).toEqual({ start: 1, text: "zo" });
    expect(mentionQuery("Hi @", 4)).toBeNull();
    expect(mentionQuery("mail ada@ex", 11)).toBeNull();
    expect(mentionQuery("@Ada Lovelace and more", 22)).toBeNull();
    expect(mentionQuery("Hi @Ad and", 6)).toEqual({ start: 3, text: "Ad" });
  });

  it("matches the start of a name or any of its words, then of an e-mail, ignoring case and accents", () => {
    expect(matchCandidates(PEOPLE, "a").map((p) => p.id)).toEqual(["ada", "alan", "zoe", "grace"]);
    expect(matchCandidates(PEOPLE, "tur").map((p) => p.id)).toEqual(["alan"]);
    expect(matchCandidates(PEOPLE, "zoe ang").map((p) => p.id)).toEqual(["zoe"]);
    expect(matchCandidates(PEOPLE, "ama").map((p) => p.id)).toEqual(["grace"]);
    expect(matchCandidates(PEOPLE, "x")).toEqual([]);
  });
});

describe("MentionTextarea", () => {
  let container: HTMLDivElement;
  let root: Root;
  let textarea: HTMLTextAreaElement;

  beforeEach(async () => {
    container = document.createElement("div");
    document.body.append(container);
    root = createRoot(container);
    await act(async () => root.render(createElement(MentionTextarea, { id: "c", name: "content", candidates: PEOPLE, "aria-label": "Comment" })));
    textarea = container.querySelector("textarea")!;
  });

  afterEach(async () => {
    await act(async () => root.unmount());
    container.remove();
  });

  const type = (value: string) =>
    act(async () => {
      Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")!.set!.call(textarea, value);
      textarea.setSelectionRange(value.length, value.length);
      textarea.dispatchEvent(new Event("input", { bubbles: true }));
    });
  const key = (k: string) => act(async () => void textarea.dispatchEvent(new KeyboardEvent("keydown", { key: k, bubbles: true, cancelable: true })));
  const options = () => [...container.querySelectorAll('[role="option"]')];
  const listbox = () => container.querySelector('[role="listbox"]');

  it("is a plain textarea until @ and a letter are typed", async () => {
    expect(listbox()).toBeNull();
    await type("Hello @");
    expect(listbox()).toBeNull();
    expect(textarea.getAttribute("aria-activedescendant")).toBeNull();
  });

  it("offers matching people in a listbox, moves with the arrow keys and inserts the choice with Enter", async () => {
    await type("Can @a");
    expect(options().map((o) => o.textContent)).toEqual([
      "Ada Lovelace ada@example.com",
      "Alan Turing alan@example.com",
      "Zoë Ångström zoe@example.com",
      "Grace Hopper amazing@example.com",
    ]);
    expect(textarea.getAttribute("aria-controls")).toBe(listbox()!.id);
    expect(textarea.getAttribute("aria-activedescendant")).toBe(options()[0]!.id);
    expect(options()[0]!.getAttribute("aria-selected")).toBe("true");
    await key("ArrowUp");
    expect(textarea.getAttribute("aria-activedescendant")).toBe(options()[3]!.id);
    await key("ArrowDown");
    await key("ArrowDown");
    await key("ArrowDown");
    expect(textarea.getAttribute("aria-activedescendant")).toBe(options()[2]!.id);
    await key("ArrowUp");
    await key("Enter");
    expect(textarea.value).toBe("Can @Alan Turing ");
    expect(listbox()).toBeNull();
  });

  it("chooses with Tab or a click, and closes with Escape", async () => {
    await type("@gr");
    await key("Tab");
    expect(textarea.value).toBe("@Grace Hopper ");
    await type("@Grace Hopper and @zo");
    await act(async () => void (options()[0] as HTMLElement).click());
    expect(textarea.value).toBe("@Grace Hopper and @Zoë Ångström ");
    await type("x @ad");
    expect(listbox()).not.toBeNull();
    await key("Escape");
    expect(listbox()).toBeNull();
    expect(textarea.value).toBe("x @ad");
  });
});
