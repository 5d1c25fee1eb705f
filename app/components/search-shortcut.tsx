import { useEffect, useState } from "react";

/** The sidebar's search box (app/routes/_app.tsx). */
export const SEARCH_INPUT_ID = "global-search";

/** Ctrl+K, or Cmd+K on a Mac: no other modifier, and not already handled by the focused widget. */
export function isSearchShortcut(event: Pick<KeyboardEvent, "key" | "ctrlKey" | "metaKey" | "altKey" | "shiftKey" | "defaultPrevented">) {
  return !event.defaultPrevented && (event.key === "k" || event.key === "K") && (event.ctrlKey || event.metaKey) && !event.altKey && !event.shiftKey;
}

/**
 * Ctrl+K / Cmd+K focuses the sidebar search box from anywhere in the signed-in
 * app, also from another field (only that key combination is taken; typing is
 * left alone). Rendered once in the shell, beside the search box, where it
 * shows the hint: "Ctrl K" (the server's and the first render), "⌘ K" on a Mac.
 */
export function SearchShortcut() {
  const [mac, setMac] = useState(false);
  useEffect(() => {
    setMac(/Mac|iPhone|iPad/i.test(navigator.platform || navigator.userAgent));
    document.getElementById(SEARCH_INPUT_ID)?.setAttribute("aria-keyshortcuts", "Control+K Meta+K");
    function onKeyDown(event: KeyboardEvent) {
      if (!isSearchShortcut(event)) return;
      const input = document.getElementById(SEARCH_INPUT_ID);
      if (!(input instanceof HTMLInputElement)) return;
      event.preventDefault();
      input.focus();
      input.select();
    }
    document.addEventListener("keydown", onKeyDown);
    return () => document.removeEventListener("keydown", onKeyDown);
  }, []);
  return (
    <span className="search-shortcut-hint" aria-hidden="true">
      <kbd>{mac ? "⌘ K" : "Ctrl K"}</kbd>
    </span>
  );
}
