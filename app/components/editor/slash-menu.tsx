import type { SlashMenuState } from "./slash-commands";

/** The `/` menu, under the caret. */
export function SlashMenu({ state, container }: { state: SlashMenuState; container: HTMLElement | null }) {
  const box = container?.getBoundingClientRect();
  const top = state.rect && box ? state.rect.bottom - box.top + 4 : 0;
  const left = state.rect && box ? state.rect.left - box.left : 0;
  return (
    <div className="slash-menu" role="listbox" aria-label="Insert a block" style={{ top, left }}>
      {state.items.map((item, i) => (
        <button
          key={item.title}
          type="button"
          role="option"
          aria-selected={i === state.index}
          className={i === state.index ? "slash-item is-selected" : "slash-item"}
          onMouseDown={(e) => e.preventDefault()}
          onClick={() => state.choose(item)}
        >
          <strong>{item.title}</strong> <span className="muted">{item.hint}</span>
        </button>
      ))}
    </div>
  );
}
