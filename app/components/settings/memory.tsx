import { Form, Link } from "@remix-run/react";
import { MEMORY_CATEGORIES, MEMORY_TYPES, type MemoryCategory, type MemoryType } from "~/ai/schemas";
import { FormAlert, type FormState, SubmitButton } from "~/components/forms";
import { PostButton } from "~/components/post-button";
import { SelectControl, TextareaControl, TextControl, shortDate, useResetAfterSuccess } from "./controls";

/** Pieces of the Memory settings page: filters, the list, and the add and extract forms. */

export const TYPE_INFO: Record<MemoryType, { label: string; hint: string }> = {
  preference: { label: "Preference", hint: "how you like things: style, detail level, terminology" },
  decision: { label: "Decision", hint: "requirements or architecture decisions already made" },
  project_context: { label: "Project context", hint: "your company, team, tech stack" },
  feedback: { label: "Feedback", hint: "what you said about generated content" },
};
export const CATEGORY_LABELS: Record<MemoryCategory, string> = {
  technical: "Technical",
  business: "Business",
  process: "Process",
  style: "Style",
  team: "Team",
};

const typeOptions = MEMORY_TYPES.map((t) => ({ value: t, label: `${TYPE_INFO[t].label}: ${TYPE_INFO[t].hint}` }));
const categoryOptions = MEMORY_CATEGORIES.map((c) => ({ value: c, label: CATEGORY_LABELS[c] }));

export interface MemoryItem {
  id: string;
  memoryType: MemoryType;
  category: MemoryCategory;
  content: string;
  summary: string;
  importance: number;
  isActive: boolean;
  sourceProjectId: string | null;
  lastUsedAt: string | null;
  createdAt: string;
}

export interface MemoryFilter {
  type?: string;
  category?: string;
  showForgotten: boolean;
}

/** GET form: works without JavaScript, the URL holds the filter. */
export function MemoryFilters({ filter, filtered }: { filter: MemoryFilter; filtered: boolean }) {
  return (
    <Form method="get" className="card filters" role="search" aria-label="Filter memories">
      <div className="field">
        <label htmlFor="filter-type">Type</label>
        <select id="filter-type" name="type" defaultValue={filter.type ?? ""}>
          <option value="">Any type</option>
          {MEMORY_TYPES.map((t) => (
            <option key={t} value={t}>
              {TYPE_INFO[t].label}
            </option>
          ))}
        </select>
      </div>
      <div className="field">
        <label htmlFor="filter-category">Category</label>
        <select id="filter-category" name="category" defaultValue={filter.category ?? ""}>
          <option value="">Any category</option>
          {categoryOptions.map((c) => (
            <option key={c.value} value={c.value}>
              {c.label}
            </option>
          ))}
        </select>
      </div>
      <label className="checkbox">
        <input type="checkbox" name="active" value="false" defaultChecked={filter.showForgotten} /> Show forgotten
      </label>
      <div className="inline">
        <button className="btn btn-secondary" type="submit">
          Apply filters
        </button>
        {filtered ? <Link to="/settings/memory">Clear filters</Link> : null}
      </div>
    </Form>
  );
}

export function MemoryList({ memories, filtered }: { memories: MemoryItem[]; filtered: boolean }) {
  if (memories.length === 0) {
    return filtered ? (
      <div className="empty-state">
        <h3>No memories match these filters</h3>
        <p>
          <Link to="/settings/memory">Clear the filters</Link> to see all your active memories.
        </p>
      </div>
    ) : (
      <div className="empty-state">
        <h3>No memories yet</h3>
        <p>
          PRD Studio includes your active memories, most important first, in every AI request, so you do not repeat your tech stack, team or writing
          preferences. Add one below, or extract them from a conversation.
        </p>
      </div>
    );
  }
  return (
    <ul className="memory-list">
      {memories.map((m) => (
        <li key={m.id} className={m.isActive ? "memory" : "memory forgotten"}>
          <div className="memory-head">
            <strong>{m.summary}</strong>
            <span className="inline">
              <span className="badge badge-brand">{TYPE_INFO[m.memoryType].label}</span>
              <span className="badge">{CATEGORY_LABELS[m.category]}</span>
              {m.isActive ? null : <span className="badge badge-warning">Forgotten</span>}
            </span>
          </div>
          {m.content !== m.summary ? <p className="memory-content">{m.content}</p> : null}
          <div className="meta-row muted">
            <span className="importance">
              <meter min={1} max={10} low={4} high={7} optimum={10} value={m.importance} aria-hidden="true" />
              Importance {m.importance}/10
            </span>
            <span>Last used: {shortDate(m.lastUsedAt) ?? "not yet"}</span>
            <span>Added {shortDate(m.createdAt)}</span>
            {m.sourceProjectId ? <Link to={`/projects/${m.sourceProjectId}`}>Source project</Link> : null}
            {m.isActive ? (
              <PostButton intent="forget" fields={{ id: m.id }} label={`Forget: ${m.summary}`} className="btn btn-secondary btn-sm">
                Forget
              </PostButton>
            ) : null}
          </div>
        </li>
      ))}
    </ul>
  );
}

export function AddMemoryForm({ state }: { state: FormState | null }) {
  const ref = useResetAfterSuccess("add", Boolean(state));
  return (
    <section className="card" aria-labelledby="add-memory-heading">
      <h2 id="add-memory-heading">Add a memory</h2>
      <FormAlert state={state} />
      <Form method="post" className="form" noValidate ref={ref}>
        <input type="hidden" name="intent" value="add" />
        <div className="form-row">
          <SelectControl id="memory-type" label="Type" name="memoryType" options={typeOptions} defaultValue="preference" state={state} required />
          <SelectControl id="memory-category" label="Category" name="category" options={categoryOptions} state={state} required />
        </div>
        <TextareaControl
          id="memory-content"
          label="What should PRD Studio remember?"
          name="content"
          rows={3}
          state={state}
          placeholder="We deploy on Fly.io and use Postgres."
          hint="One fact or preference, at most 2,000 characters."
          required
        />
        <div className="form-row">
          <TextControl id="memory-summary" label="Summary (optional)" name="summary" state={state} hint="A short title; defaults to the first sentence." />
          <TextControl
            id="memory-importance"
            label="Importance (1–10)"
            name="importance"
            type="number"
            min="1"
            max="10"
            defaultValue="5"
            state={state}
            hint="Higher comes first in AI requests."
          />
        </div>
        <div>
          <SubmitButton name="intent" value="add" pendingText="Saving…">
            Save memory
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

export function ExtractForm({ state }: { state: FormState | null }) {
  const ref = useResetAfterSuccess("extract", Boolean(state));
  const errorKey = Object.keys(state?.fieldErrors ?? {}).find((k) => k.startsWith("conversation")) ?? "conversation";
  return (
    <section className="card" aria-labelledby="extract-heading">
      <h2 id="extract-heading">Extract from a conversation</h2>
      <p className="muted">
        Paste a conversation; PRD Studio finds lasting preferences, decisions and context in it and saves the new ones. It uses your AI provider, or the
        built-in offline drafter when there is none.
      </p>
      <FormAlert state={state} />
      <Form method="post" className="form" noValidate ref={ref}>
        <input type="hidden" name="intent" value="extract" />
        <TextareaControl
          id="extract-conversation"
          label="Conversation"
          name="conversation"
          errorKey={errorKey}
          rows={8}
          state={state}
          placeholder={
            "User: We use Postgres and deploy on Fly.io.\nAssistant: Noted. Anything about the format?\nUser: I prefer concise PRDs with bullet points."
          }
          hint="Start each message on a new line with “User:” or “Me:” for you, “Assistant:” or “AI:” for the assistant. At most 50 messages."
          required
        />
        <div>
          <SubmitButton name="intent" value="extract" pendingText="Extracting…">
            Extract memories
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}
