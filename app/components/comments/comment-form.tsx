import { Form, useFetcher } from "@remix-run/react";
import { createContext, type ReactNode, useContext, useEffect, useRef } from "react";

/** What the page's action answers a comment form: a confirmation, or the form state of a failure. */
export interface CommentActionData {
  commentMessage?: string;
  formError?: string;
  fieldErrors?: Record<string, string>;
}

export type Notify = (message: string, tone?: "success" | "error") => void;

/** Where outcomes go (the panel's status line), so they stay visible when a form closes or its thread moves. */
export const CommentNotice = createContext<Notify>(() => {});

const failureOf = (data: CommentActionData) => (data.commentMessage ? null : (Object.values(data.fieldErrors ?? {})[0] ?? data.formError ?? null));

/**
 * A form with a text box (new comment, reply, edit). With JavaScript it posts
 * through its own fetcher (no page navigation): on success the form is
 * cleared, the `<details>` around it closed and the confirmation handed to
 * the panel; a failure is shown in the form. Without JavaScript it is a plain
 * POST to the page, which shows the outcome.
 */
export function CommentForm({
  intent,
  fields = {},
  className = "form",
  children,
}: {
  intent: string;
  fields?: Record<string, string>;
  className?: string;
  children: (state: { busy: boolean }) => ReactNode;
}) {
  const fetcher = useFetcher<CommentActionData>();
  const form = useRef<HTMLFormElement>(null);
  const notify = useContext(CommentNotice);
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (!result?.commentMessage) return;
    form.current?.reset();
    form.current?.closest("details")?.removeAttribute("open");
    notify(result.commentMessage);
  }, [result, notify]);
  const error = result ? failureOf(result) : null;
  return (
    <fetcher.Form method="post" className={className} ref={form}>
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      {children({ busy: fetcher.state !== "idle" })}
      {error ? (
        <p className="field-error" role="alert">
          {error}
        </p>
      ) : null}
    </fetcher.Form>
  );
}

type ActionsFetcher = ReturnType<typeof useFetcher<CommentActionData>>;

/** The panel's fetcher for one-button actions (delete, resolve, reopen), whose forms may vanish or move when they succeed. */
export const CommentActions = createContext<ActionsFetcher | null>(null);

/** The panel's actions fetcher: its outcome, success or failure, goes to `notify`. */
export function useCommentActions(notify: Notify) {
  const fetcher = useFetcher<CommentActionData>();
  const result = fetcher.state === "idle" ? fetcher.data : undefined;
  useEffect(() => {
    if (!result) return;
    const failure = failureOf(result);
    notify(failure ?? result.commentMessage ?? "", failure ? "error" : "success");
  }, [result, notify]);
  return fetcher;
}

/** A one-button form for a comment (`commentId`): through the panel's actions fetcher, or a plain POST without JavaScript. */
export function ActionButton({ intent, commentId, label, children }: { intent: string; commentId: string; label: string; children: ReactNode }) {
  const fetcher = useContext(CommentActions);
  const Tag = fetcher?.Form ?? Form;
  const busy = fetcher?.state === "submitting" && fetcher.formData?.get("commentId") === commentId && fetcher.formData?.get("intent") === intent;
  return (
    <Tag method="post" className="inline-form">
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="commentId" value={commentId} />
      <button type="submit" className="btn btn-link btn-sm" disabled={busy} aria-label={label}>
        {children}
      </button>
    </Tag>
  );
}
