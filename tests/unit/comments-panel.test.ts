// @vitest-environment jsdom
import { act, createElement } from "react";
import { createRoot, type Root } from "react-dom/client";
import { createMemoryRouter, RouterProvider, useLoaderData } from "react-router-dom";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type CommentView, CommentsPanel, type CommentsPanelProps } from "~/components/comments-panel";

/**
 * The comments panel in the browser (jsdom, a data router standing in for the
 * page): forms post through fetchers, boxes clear on success and keep the
 * text on failure, Resolve folds a thread, and the props the editor uses.
 */

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const NOW = "2030-01-01T10:00:00.000Z";
const comment = (id: string, over: Partial<CommentView> = {}): CommentView => ({
  id,
  content: `Comment ${id}`,
  section: null,
  deleted: false,
  user: { id: "u1", name: "Ada Lovelace" },
  createdAt: NOW,
  editedAt: null,
  anchor: null,
  resolved: false,
  resolvedAt: null,
  resolvedBy: null,
  replies: [],
  ...over,
});

let threads: CommentView[];
let posted: Record<string, string>[];
let container: HTMLDivElement;
let root: Root;
let onThreadFocus: (id: string) => void;

async function render(props: Partial<CommentsPanelProps> = {}) {
  const router = createMemoryRouter(
    [
      {
        path: "/",
        loader: () => ({ comments: threads }),
        action: async ({ request }) => {
          const values = Object.fromEntries(new URLSearchParams(await request.text())) as Record<string, string>;
          posted.push(values);
          if (values.content === "fail") return { formError: "Check the highlighted fields.", fieldErrors: { content: "That will not do" } };
          if (values.intent === "comment-resolve")
            threads = threads.map((t) => (t.id === values.commentId ? { ...t, resolved: true, resolvedBy: { id: "u2", name: "Bob" } } : t));
          if (values.intent === "comment-create") threads = [...threads, comment(`c${threads.length + 1}`, { content: values.content })];
          return { commentMessage: values.intent === "comment-resolve" ? "Thread resolved." : "Comment posted." };
        },
        Component() {
          const { comments } = useLoaderData() as { comments: CommentView[] };
          return createElement(CommentsPanel, {
            comments,
            sections: [{ id: "problem", title: "Problem" }],
            me: "u1",
            isAdmin: false,
            canComment: true,
            mentionable: [],
            onThreadFocus,
            ...props,
          });
        },
      },
    ],
    { initialEntries: ["/"] },
  );
  await act(async () => root.render(createElement(RouterProvider, { router })));
  await flush();
}

const flush = () => act(async () => await new Promise((r) => setTimeout(r, 0)));
const settle = async () => {
  for (let i = 0; i < 5; i++) await flush();
};
const q = <T extends Element>(selector: string) => container.querySelector<T>(selector);
const buttonNamed = (name: string) => [...container.querySelectorAll("button")].find((b) => b.textContent?.trim() === name);

function typeInto(textarea: HTMLTextAreaElement, value: string) {
  Object.getOwnPropertyDescriptor(HTMLTextAreaElement.prototype, "value")!.set!.call(textarea, value);
  textarea.dispatchEvent(new Event("input", { bubbles: true }));
}

beforeEach(() => {
  threads = [];
  posted = [];
  onThreadFocus = vi.fn<(id: string) => void>();
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
});

afterEach(async () => {
  await act(async () => root.unmount());
  container.remove();
});

describe("CommentsPanel", () => {
  it("posts a new comment without leaving the page, then clears the box and confirms", async () => {
    await render();
    const box = q<HTMLTextAreaElement>("#comment-content")!;
    expect(box.placeholder).toContain("Type @ to mention a teammate");
    await act(async () => typeInto(box, "Which step loses most?"));
    await act(async () => buttonNamed("Comment")!.click());
    await settle();
    expect(posted).toEqual([{ intent: "comment-create", content: "Which step loses most?", section: "" }]);
    expect(box.value).toBe("");
    expect(q('[role="status"]')!.textContent).toBe("Comment posted.");
    expect(container.textContent).toContain("Which step loses most?");
  });

  it("keeps the text and shows the error when the post fails", async () => {
    await render();
    const box = q<HTMLTextAreaElement>("#comment-content")!;
    await act(async () => typeInto(box, "fail"));
    await act(async () => buttonNamed("Comment")!.click());
    await settle();
    expect(box.value).toBe("fail");
    expect(q('[role="alert"]')!.textContent).toBe("That will not do");
  });

  it("clears and closes a reply box after a successful reply", async () => {
    threads = [comment("t1")];
    await render();
    const details = q("#reply-t1")!.closest("details")!;
    details.open = true;
    await act(async () => typeInto(q<HTMLTextAreaElement>("#reply-t1")!, "Agreed"));
    await act(async () => buttonNamed("Reply")!.click());
    await settle();
    expect(posted[0]).toEqual({ intent: "comment-create", parentId: "t1", content: "Agreed" });
    expect(q<HTMLTextAreaElement>("#reply-t1")!.value).toBe("");
    expect(details.open).toBe(false);
  });

  it("shows each thread's passage, resolves a thread into the Resolved fold, and offers Reopen there", async () => {
    threads = [
      comment("t1", { section: "problem", anchor: { quote: "nine steps", prefix: null, suffix: null, status: "anchored" } }),
      comment("t2", { anchor: { quote: "old text", prefix: null, suffix: null, status: "lost" } }),
    ];
    await render();
    expect(q("#comment-t1 blockquote.comment-quote")!.textContent).toBe("nine steps");
    expect(q("#comment-t2")!.textContent).toContain("The passage this comment was on was removed.");
    expect(q("details.comments-resolved")).toBeNull();
    await act(async () => q<HTMLButtonElement>('#comment-t1 button[aria-label^="Resolve thread"]')!.click());
    await settle();
    expect(posted).toEqual([{ intent: "comment-resolve", commentId: "t1" }]);
    expect(q('[role="status"]')!.textContent).toBe("Thread resolved.");
    const fold = q("details.comments-resolved")!;
    expect(fold.querySelector("summary")!.textContent).toBe("Resolved (1)");
    expect(fold.querySelector("#comment-t1")).not.toBeNull();
    expect(fold.textContent).toContain("Resolved by Bob");
    expect(fold.querySelector('button[aria-label^="Reopen thread"]')).not.toBeNull();
  });

  it("highlights the active thread and reports the thread the user clicks", async () => {
    threads = [comment("t1"), comment("t2")];
    await render({ activeCommentId: "t2" });
    const t2 = q("#comment-t2")!;
    expect(t2.getAttribute("data-comment-id")).toBe("t2");
    expect(t2.classList.contains("thread-active")).toBe(true);
    expect(q("#comment-t1")!.classList.contains("thread-active")).toBe(false);
    await act(async () => (q("#comment-t1 .comment-body") as HTMLElement).click());
    expect(onThreadFocus).toHaveBeenCalledWith("t1");
  });
});
