import { type KeyboardEvent, type TextareaHTMLAttributes, useId, useRef, useState } from "react";
import { matchCandidates, mentionQuery } from "./mention-query";
import type { MentionCandidate } from "./types";
import { plural } from "~/utils/plural";

type Props = Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, "value" | "onChange"> & {
  /** The people `@` offers (readers of the project). */
  candidates: MentionCandidate[];
};

/**
 * A textarea that offers people to mention after `@` + letters: a listbox
 * under it (arrow keys to move, Enter or Tab to choose, Escape to close, or a
 * click), the choice written as `@Full Name `. The textarea keeps its own
 * value (uncontrolled), so a form reset clears it; before JavaScript runs
 * (or without it) it is a plain textarea.
 */
export function MentionTextarea({ candidates, className, onKeyDown, onBlur, ...props }: Props) {
  const ref = useRef<HTMLTextAreaElement>(null);
  const listId = useId();
  const [query, setQuery] = useState<{ start: number; text: string } | null>(null);
  const [active, setActive] = useState(0);
  const matches = query ? matchCandidates(candidates, query.text) : [];
  const open = matches.length > 0;
  const optionId = (i: number) => `${listId}-option-${i}`;

  function update() {
    const el = ref.current;
    if (!el) return;
    const next = el.selectionStart === el.selectionEnd ? mentionQuery(el.value, el.selectionStart) : null;
    setQuery((prev) => (prev?.start === next?.start && prev?.text === next?.text ? prev : next));
    if (next?.text !== query?.text) setActive(0);
  }

  function choose(candidate: MentionCandidate) {
    const el = ref.current;
    if (!el || !query) return;
    el.setRangeText(`@${candidate.name} `, query.start, el.selectionStart, "end");
    setQuery(null);
    el.focus();
  }

  function keyDown(event: KeyboardEvent<HTMLTextAreaElement>) {
    if (open) {
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        setActive((i) => (i + step + matches.length) % matches.length);
        return;
      }
      if (event.key === "Enter" || event.key === "Tab") {
        event.preventDefault();
        choose(matches[Math.min(active, matches.length - 1)]!);
        return;
      }
      if (event.key === "Escape") {
        event.preventDefault();
        setQuery(null);
        return;
      }
    }
    onKeyDown?.(event);
  }

  return (
    <div className="mention-field">
      <textarea
        {...props}
        ref={ref}
        className={className}
        aria-autocomplete="list"
        aria-controls={open ? listId : undefined}
        aria-activedescendant={open ? optionId(Math.min(active, matches.length - 1)) : undefined}
        onInput={update}
        onClick={update}
        onKeyUp={(e) => {
          if (["ArrowLeft", "ArrowRight", "Home", "End"].includes(e.key)) update();
        }}
        onKeyDown={keyDown}
        onBlur={(e) => {
          setQuery(null);
          onBlur?.(e);
        }}
      />
      {open ? (
        <div className="mention-list" role="listbox" id={listId} aria-label="People to mention">
          {matches.map((c, i) => (
            // biome-ignore lint/a11y/useFocusableInteractive: focus stays in the textarea, which points at the option (aria-activedescendant).
            // biome-ignore lint/a11y/useKeyWithClickEvents: the keys are the textarea's; this is the pointer's way.
            <div
              key={c.id}
              id={optionId(i)}
              role="option"
              aria-selected={i === active}
              className={i === active ? "mention-option active" : "mention-option"}
              // Pressing an option must not blur the textarea (that would close the list first).
              onMouseDown={(e) => e.preventDefault()}
              onClick={() => choose(c)}
            >
              <span>{c.name}</span> <span className="muted">{c.email}</span>
            </div>
          ))}
        </div>
      ) : null}
      <span className="sr-only" aria-live="polite">
        {open ? `${plural(matches.length, "person", "people")} to mention: up and down arrows to move, Enter to choose.` : ""}
      </span>
    </div>
  );
}
