// @vitest-environment jsdom
import { act, createElement } from "react";
import { createRoot, type Root } from "react-dom/client";
import { afterEach, beforeEach, describe, expect, it, type Mock, vi } from "vitest";
import { SelectionAi } from "~/components/editor/selection-ai";

/**
 * The "AI on a selection" panel in the browser (jsdom): what it sends to
 * POST /api/ai/improve, the live suggestion, the word diff, Accept/Reject,
 * and errors said in plain words. fetch is replaced by a hand-fed SSE body.
 */

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

const TEXT = "Basically we need to cut no-shows from 18% to 9%.";

let container: HTMLDivElement;
let root: Root;
let onAccept: Mock<(replacement: string) => void>;
let onClose: Mock<() => void>;
let requests: { url: string; init: RequestInit }[];

/** An SSE response whose events the test writes when it wants. */
function sseFeed() {
  let controller!: ReadableStreamDefaultController<Uint8Array>;
  const body = new ReadableStream<Uint8Array>({ start: (c) => void (controller = c) });
  const encoder = new TextEncoder();
  return {
    response: new Response(body, { status: 200, headers: { "Content-Type": "text/event-stream" } }),
    send: (event: object) => controller.enqueue(encoder.encode(`data: ${JSON.stringify(event)}\n\n`)),
    end: () => controller.close(),
  };
}

function answerWith(response: Response | (() => Response)) {
  vi.stubGlobal(
    "fetch",
    vi.fn(async (url: string, init: RequestInit) => {
      requests.push({ url, init });
      return typeof response === "function" ? response() : response;
    }),
  );
}

const flush = () => act(async () => await new Promise((r) => setTimeout(r, 0)));
const button = (name: string) => [...container.querySelectorAll("button")].find((b) => b.textContent?.trim() === name);
const click = (name: string) =>
  act(async () => {
    const b = button(name);
    if (!b) throw new Error(`no button "${name}" in: ${container.textContent}`);
    b.click();
  });

function typeInto(input: HTMLInputElement, value: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, "value")!.set!.call(input, value);
  input.dispatchEvent(new Event("input", { bubbles: true }));
}

beforeEach(async () => {
  requests = [];
  onAccept = vi.fn<(replacement: string) => void>();
  onClose = vi.fn<() => void>();
  container = document.createElement("div");
  document.body.append(container);
  root = createRoot(container);
  await act(async () => root.render(createElement(SelectionAi, { projectId: "p1", text: TEXT, onAccept, onClose })));
});

afterEach(async () => {
  await act(async () => root.unmount());
  container.remove();
  vi.unstubAllGlobals();
});

describe("SelectionAi", () => {
  it("offers the four actions and a labelled instruction box", () => {
    for (const name of ["Improve", "Shorten", "Expand", "Make measurable", "Run"]) expect(button(name), name).toBeTruthy();
    const input = container.querySelector("input")!;
    expect(container.querySelector(`label[for="${input.id}"]`)?.textContent).toBe("Tell AI what to do");
    expect(button("Run")!.disabled).toBe(true);
  });

  it("streams the suggestion live with progress and Stop, then shows a word diff to accept", async () => {
    const feed = sseFeed();
    answerWith(feed.response);
    await click("Shorten");
    expect(requests).toHaveLength(1);
    expect(requests[0]!.url).toBe("/api/ai/improve");
    expect(requests[0]!.init.method).toBe("POST");
    expect(JSON.parse(String(requests[0]!.init.body))).toEqual({ content: TEXT, improvementType: "make_concise", projectId: "p1" });

    feed.send({ type: "progress", phase: "rewriting", percent: 0 });
    feed.send({ type: "content", content: "We need to cut " });
    await flush();
    expect(container.querySelector('[role="region"][aria-label="Suggestion so far"]')?.textContent).toBe("We need to cut ");
    expect(container.querySelector('.ai-progress[role="status"]')).toBeTruthy();
    expect(button("Stop")).toBeTruthy();
    expect(document.activeElement).toBe(button("Stop"));

    feed.send({ type: "content", content: "no-shows from 18% to 9%." });
    feed.send({
      type: "done",
      fullContent: "We need to cut no-shows from 18% to 9%.",
      changed: true,
      model: "builtin",
      provider: "builtin",
      keySource: "builtin",
      truncated: false,
    });
    feed.end();
    await flush();
    expect(container.querySelector("del")?.textContent).toContain("Basically we");
    expect(container.querySelector("ins")?.textContent).toContain("We");
    expect(container.textContent).toContain("offline drafter (rule-based, not an AI model)");
    expect(document.activeElement).toBe(button("Accept"));
    await click("Accept");
    expect(onAccept).toHaveBeenCalledWith("We need to cut no-shows from 18% to 9%.");
  });

  it("Reject and Escape close the panel", async () => {
    const feed = sseFeed();
    answerWith(feed.response);
    await click("Improve");
    feed.send({
      type: "done",
      fullContent: "We need to cut no-shows from 18% to 9%.",
      changed: true,
      model: "gpt-4o-mini",
      provider: "provider_a",
      keySource: "personal",
      truncated: false,
    });
    feed.end();
    await flush();
    expect(container.textContent).toContain("Suggested by gpt-4o-mini.");
    await click("Reject");
    expect(onClose).toHaveBeenCalledTimes(1);
    await act(async () => void container.querySelector("input, button")!.dispatchEvent(new KeyboardEvent("keydown", { key: "Escape", bubbles: true })));
    expect(onClose).toHaveBeenCalledTimes(2);
  });

  it("Stop ends the stream and leaves the text alone", async () => {
    const feed = sseFeed();
    answerWith(feed.response);
    await click("Expand");
    feed.send({ type: "content", content: "Basically" });
    await flush();
    await click("Stop");
    expect(button("Stop")).toBeUndefined();
    expect(container.textContent).toContain("Stopped. Your text was not changed.");
    expect(onAccept).not.toHaveBeenCalled();
  });

  it("runs a custom instruction, and says so plainly when the offline drafter cannot carry it out", async () => {
    const feed = sseFeed();
    answerWith(feed.response);
    await act(async () => typeInto(container.querySelector("input")!, "Make it more persuasive"));
    await act(async () => container.querySelector("form")!.requestSubmit());
    expect(JSON.parse(String(requests[0]!.init.body))).toEqual({
      content: TEXT,
      improvementType: "improve_writing",
      customPrompt: "Make it more persuasive",
      projectId: "p1",
    });
    feed.send({ type: "done", fullContent: TEXT, changed: false, model: "builtin", provider: "builtin", keySource: "builtin", truncated: false });
    feed.end();
    await flush();
    expect(container.textContent).toContain("The offline drafter cannot carry out that instruction, so your text is unchanged.");
    expect(button("Accept")).toBeUndefined();
    expect(container.querySelector("ins, del")).toBeNull();
  });

  const refusals: [string, () => Response, RegExp][] = [
    [
      "429 with Retry-After",
      () => Response.json({ error: "Too many requests", code: "RATE_LIMITED" }, { status: 429, headers: { "Retry-After": "30" } }),
      /Too many AI requests right now\. Try again in 30 seconds\./,
    ],
    [
      "403 LIMIT_REACHED (ai_tokens)",
      () => Response.json({ error: "Limit reached", code: "LIMIT_REACHED", metric: "ai_tokens" }, { status: 403 }),
      /used this month's AI allowance/,
    ],
    ["404 NOT_FOUND", () => Response.json({ error: "Project not found", code: "NOT_FOUND" }, { status: 404 }), /project was not found/],
    ["403 FORBIDDEN", () => Response.json({ error: "Forbidden", code: "FORBIDDEN" }, { status: 403 }), /need edit rights/],
  ];
  for (const [label, response, words] of refusals) {
    it(`says a refused request in plain words: ${label}`, async () => {
      answerWith(response);
      await click("Make measurable");
      await flush();
      const alert = container.querySelector('[role="alert"]');
      expect(alert?.textContent).toMatch(words);
      expect(button("Try again")).toBeTruthy();
    });
  }

  it("says a provider failure in plain words, and points to the key when it was refused", async () => {
    const feed = sseFeed();
    answerWith(feed.response);
    await click("Improve");
    feed.send({ type: "error", message: "OpenAI refused the API key (401): Incorrect API key provided", code: "GENERATION_ERROR" });
    feed.end();
    await flush();
    const alert = container.querySelector('[role="alert"]')!;
    expect(alert.textContent).toMatch(/refused the API key, so nothing was suggested\. Check the key in Settings → AI providers/);
    expect(alert.querySelector('a[href="/settings/ai"]')).toBeTruthy();
  });
});
