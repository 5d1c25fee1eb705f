import { streamingHtml } from "~/utils/markdown-stream";

type Pair = { id: string; question: string; answer: string; response: string; model: string; questionHtml: string; answerHtml: string; responseHtml: string };

/** Markdown rendered and sanitized on the server (renderMarkdown). */
// biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized on the server (renderMarkdown: marked + sanitize-html).
const Rendered = ({ html }: { html: string }) => <div className="bubble-text" dangerouslySetInnerHTML={{ __html: html }} />;

/**
 * What the assistant said before answer i: the previous reply (its
 * acknowledgement of the last answer, then this question) when it ends with
 * the question, else the question alone.
 */
function asked(pairs: Pair[], i: number) {
  const before = pairs[i - 1];
  return before?.responseHtml && before.response.trim().endsWith(pairs[i]!.question.trim()) ? before.responseHtml : pairs[i]!.questionHtml;
}

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
            <Rendered html={asked(pairs, i)} />
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
              {pairs.at(-1)?.responseHtml && pairs.at(-1)!.response.trim().endsWith(nextQuestion.trim()) ? (
                <Rendered html={pairs.at(-1)!.responseHtml} />
              ) : nextQuestionHtml ? (
                <Rendered html={nextQuestionHtml} />
              ) : (
                nextQuestion
              )}
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
