import { PROVIDER_SHORT, type ProviderId } from "~/ai/types";

/** A progress bar for streamed AI work, announced to screen readers. */
export function AiProgress({ phase, percent, label }: { phase: string; percent: number; label: string }) {
  const value = Math.max(0, Math.min(100, Math.round(percent)));
  return (
    <div className="ai-progress" role="status" aria-live="polite">
      <div className="ai-progress-label">
        <span>
          {label} — {phase}
        </span>
        <span>{value}%</span>
      </div>
      <progress max={100} value={value} aria-label={label}>
        {value}%
      </progress>
    </div>
  );
}

/** Who answers AI requests, said plainly: a provider's model, or the offline drafter. */
export function AnsweredBy({ source, provider, model }: { source: string; provider: string; model: string }) {
  if (source === "builtin") {
    return (
      <p className="answered-by" data-testid="answered-by">
        <span className="badge badge-warning">Offline drafter</span> Answers come from the built-in offline drafter: rule-based, not an AI model. It organises
        what you write into a PRD and measures it. Add an AI provider key in <a href="/settings/ai">Settings → AI providers</a> for AI answers.
      </p>
    );
  }
  const keys: Record<string, string> = { personal: "your personal key", organization: "your organization's key", platform: "this server's key" };
  return (
    <p className="answered-by" data-testid="answered-by">
      <span className="badge badge-brand">AI</span> Answers come from {PROVIDER_SHORT[provider as ProviderId] ?? "an AI provider"} ({model}) with{" "}
      {keys[source] ?? source}.
    </p>
  );
}
