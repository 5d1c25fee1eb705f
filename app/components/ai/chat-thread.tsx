type Pair = { id: string; question: string; answer: string; response: string; model: string };

/**
 * The builder conversation as chat bubbles: each saved pair is the
 * assistant's question and the user's answer; the waiting question comes
 * last. `pending` shows an answer being sent and the reply streaming in.
 */
export function ChatThread({
  pairs,
  nextQuestion,
  pending,
}: {
  pairs: Pair[];
  nextQuestion: string | null;
  pending: { answer: string; response: string } | null;
}) {
  return (
    <ol className="chat" aria-label="Conversation">
      {pairs.map((p, i) => (
        <li key={p.id} id={i === pairs.length - 1 && !pending ? "latest" : undefined}>
          <div className="bubble assistant">
            <span className="sr-only">Assistant: </span>
            {p.question}
          </div>
          <div className="bubble user">
            <span className="sr-only">You: </span>
            {p.answer}
          </div>
        </li>
      ))}
      {pending ? (
        <li>
          <div className="bubble assistant">{nextQuestion}</div>
          <div className="bubble user">{pending.answer}</div>
          <div className="bubble assistant streaming" aria-live="polite">
            {pending.response || <span className="muted">Thinking…</span>}
          </div>
        </li>
      ) : (
        <li>
          {nextQuestion ? (
            <div className="bubble assistant next-question" data-testid="next-question">
              <span className="sr-only">Assistant asks: </span>
              {nextQuestion}
            </div>
          ) : (
            <div className="bubble assistant next-question" data-testid="next-question">
              {pairs.at(-1)?.response ?? "I have what I need. Generate the PRD when you are ready."}
            </div>
          )}
        </li>
      )}
    </ol>
  );
}
