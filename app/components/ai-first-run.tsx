import { Form, Link } from "@remix-run/react";

/**
 * Home page card for someone the offline drafter answers (no personal,
 * organization or server key): what that means, where to connect a
 * provider, and "Dismiss" (a form, so it works without JavaScript).
 */
export function AiFirstRunCard() {
  return (
    <section className="card ai-first-run" aria-labelledby="ai-first-run-heading">
      <h2 id="ai-first-run-heading">Write with an AI provider</h2>
      <p>
        You're using the offline drafter — it works without a key and keeps your words, but a provider writes better. Add an OpenAI, Anthropic or Google key, or
        point the app at a local server (Ollama, llama.cpp).
      </p>
      <div className="form-row">
        <Link to="/settings/ai" className="btn">
          Connect an AI provider
        </Link>
        <Form method="post" action="/home" className="inline-form">
          <button type="submit" className="btn btn-link" name="intent" value="dismiss-ai-prompt">
            Dismiss
          </button>
        </Form>
      </div>
    </section>
  );
}
