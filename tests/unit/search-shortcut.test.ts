// @vitest-environment jsdom
import { act, createElement } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { SearchShortcut } from "~/components/search-shortcut";

/** Ctrl+K / Cmd+K focuses the sidebar search box (#global-search) from anywhere in the app, in the browser (jsdom). */

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

let container: HTMLDivElement;
let root: Root;
let search: HTMLInputElement;
let other: HTMLTextAreaElement;

const press = (target: Element, init: KeyboardEventInit) => {
  const event = new KeyboardEvent("keydown", { bubbles: true, cancelable: true, ...init });
  target.dispatchEvent(event);
  return event;
};

beforeEach(() => {
  document.body.innerHTML = '<form><input id="global-search" type="search" value="old words"></form><textarea id="other"></textarea>';
  search = document.getElementById("global-search") as HTMLInputElement;
  other = document.getElementById("other") as HTMLTextAreaElement;
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
  act(() => root.render(createElement(SearchShortcut)));
});

afterEach(() => {
  act(() => root.unmount());
  document.body.innerHTML = "";
});

describe("SearchShortcut", () => {
  it("shows the hint and names the shortcut on the search box", () => {
    expect(container.querySelector("kbd")?.textContent).toBe("Ctrl K");
    expect(search.getAttribute("aria-keyshortcuts")).toBe("Control+K Meta+K");
  });

  it("focuses and selects the search box on Ctrl+K and Cmd+K, also from another field", () => {
    other.focus();
    const event = press(other, { key: "k", ctrlKey: true });
    expect(event.defaultPrevented).toBe(true);
    expect(document.activeElement).toBe(search);
    expect([search.selectionStart, search.selectionEnd]).toEqual([0, "old words".length]);

    document.body.focus();
    other.focus();
    press(document.body, { key: "K", metaKey: true });
    expect(document.activeElement).toBe(search);
  });

  it("leaves typing and other shortcuts alone", () => {
    other.focus();
    for (const init of [{ key: "k" }, { key: "k", altKey: true, ctrlKey: true }, { key: "K", shiftKey: true, ctrlKey: true }, { key: "j", ctrlKey: true }]) {
      const event = press(other, init);
      expect(event.defaultPrevented).toBe(false);
      expect(document.activeElement).toBe(other);
    }
    // A widget that handled Ctrl+K itself keeps it.
    other.addEventListener("keydown", (e) => e.preventDefault(), { once: true });
    press(other, { key: "k", ctrlKey: true });
    expect(document.activeElement).toBe(other);
  });

  it("stops listening once unmounted", () => {
    act(() => root.unmount());
    other.focus();
    press(other, { key: "k", ctrlKey: true });
    expect(document.activeElement).toBe(other);
    root = createRoot(container);
  });
});
