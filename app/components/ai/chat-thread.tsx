import { streamingHtml } from "~/utils/markdown-stream";

type Pair = { id: string; question: string; answer: string; response: string; model: string; questionHtml: string; answerHtml: string; responseHtml: string };

/** Markdown rendered and sanitized on the server (renderMarkdown). */
const Rendered = ({ html }: { html: string }) => <div className="bubble-text" dangerouslySetInnerHTML={{ __html: html }} />;

/**
 * The builder conversation as chat bubbles: each saved pair is the
 * assistant's question and the user's answer; the waiting question comes
 * last. `pending` shows an answer being sent and the reply streaming in.
 */
export function ChatThread({
  pairs,
  nextQuestion,
  nextQuestionHtml,
  pending,
}: {
  pairs: Pair[];
  nextQuestion: string | null;
  nextQuestionHtml: string | null;
  pending: { answer: string; response: string } | null;
}) {
  return (
    <ol className="chat" aria-label="Conversation">
      {pairs.map((p, i) => (
        <li key={p.id} id={i === pairs.length - 1 && !pending ? "latest" : undefined}>
          <div className="bubble assistant">
            <span className="sr-only">Assistant: </span>
            <Rendered html={p.questionHtml} />
          </div>
          <div className="bubble user">
            <span className="sr-only">You: </span>
            <Rendered html={p.answerHtml} />
          </div>
        </li>
      ))}
      {pending ? (
        <li>
          <div className="bubble assistant">{nextQuestionHtml ? <Rendered html={nextQuestionHtml} /> : nextQuestion}</div>
          <div className="bubble user">
            <Rendered html={streamingHtml(pending.answer)} />
          </div>
          <div className="bubble assistant streaming" aria-live="polite">
            {pending.response ? <Rendered html={streamingHtml(pending.response)} /> : <span className="muted">Thinking…</span>}
          </div>
        </li>
      ) : (
        <li>
          {nextQuestion ? (
            <div className="bubble assistant next-question" data-testid="next-question">
              <span className="sr-only">Assistant asks: </span>
              {nextQuestionHtml ? <Rendered html={nextQuestionHtml} /> : nextQuestion}
            </div>
          ) : (
            <div className="bubble assistant next-question" data-testid="next-question">
              {pairs.at(-1) ? <Rendered html={pairs.at(-1)!.responseHtml} /> : "I have what I need. Generate the PRD when you are ready."}
            </div>
          )}
        </li>
      )}
    </ol>
  );
}
