import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as withHeaders, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation, useRevalidator } from "@remix-run/react";
import { PostButton } from "~/components/post-button";
import { useRef, useState } from "react";
import { resolveProvider } from "~/ai/keys.server";
import { PRD_STYLES } from "~/ai/schemas";
import { renderMarkdown } from "~/utils/markdown.server";
import { AiProgress, AnsweredBy } from "~/components/ai/progress";
import { useAiStream } from "~/components/ai/use-ai-stream";
import { ChatThread } from "~/components/ai/chat-thread";
import { FormAlert, Notice } from "~/components/forms";
import { generatePrdSchema, projectChatSchema } from "~/domain/builder/builder.schema";
import { getConversation, projectChat, resetConversation } from "~/domain/builder/conversation.server";
import { generatePrd } from "~/domain/builder/generate.server";
import { getProject } from "~/domain/projects/projects.server";
import { readFlash, redirectWithNotice } from "~/http/ui/flash.server";
import { assertAiRate } from "~/http/ai-rate.server";
import { formFailure, formValues, orPageError, requireUiActor } from "~/http/ui/ui.server";
import { plural } from "~/utils/plural";

export const meta: MetaFunction = () => [{ title: "AI builder · PRD Studio" }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const project = await orPageError(getProject(actor, params.projectId!));
  const [conversation, resolved, { flash, headers }] = await Promise.all([
    getConversation(actor, project.id),
    resolveProvider({ userId: actor.user.id, orgId: actor.org.id }),
    readFlash(request),
  ]);
  return withHeaders(
    {
      projectId: project.id,
      canEdit: project.permissions.canEdit,
      hasPrd: Boolean(project.prd),
      conversation: {
        ...conversation,
        // Questions and answers are Markdown (the drafter bolds, lists and quotes): shown rendered, sanitized.
        qaPairs: conversation.qaPairs.map((p) => ({ ...p, questionHtml: renderMarkdown(p.question), answerHtml: renderMarkdown(p.answer), responseHtml: renderMarkdown(p.response) })),
        nextQuestionHtml: conversation.nextQuestion ? renderMarkdown(conversation.nextQuestion) : null,
      },
      answeredBy: { source: resolved.source, provider: resolved.provider, model: resolved.model },
      notice: flash?.kind === "notice" ? flash.message : null,
    },
    { headers },
  );
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const values = await formValues(request);
  const projectId = params.projectId!;
  const here = `/projects/${projectId}/builder`;
  try {
    if (values.intent === "reset") {
      await resetConversation(actor, projectId);
      return redirectWithNotice(here, "The conversation was cleared. Your PRD and its versions are unchanged.");
    }
    if (values.intent === "generate") {
      await assertAiRate(actor, values.provider);
      const result = await generatePrd(actor, generatePrdSchema.parse({ ...values, projectId }), request.signal);
      const message = `PRD generated as version ${result.version.number}${result.model === "builtin" ? " by the offline drafter" : ` with ${result.model}`}.${result.truncated ? " It was cut off at the model's output limit: check the end." : ""}`;
      return redirectWithNotice(`/projects/${projectId}`, message);
    }
    await assertAiRate(actor, values.provider);
    await projectChat(actor, projectId, projectChatSchema.parse({ message: values.message }), request.signal);
    return redirect(`${here}#latest`);
  } catch (error) {
    return formFailure(error, values, [], { intent: values.intent ?? "answer" });
  }
}

export default function Builder() {
  const { projectId, canEdit, hasPrd, conversation, answeredBy, notice } = useLoaderData<typeof loader>();
  const failure = useActionData<typeof action>();
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const answer = useAiStream();
  const generation = useAiStream();
  const [pending, setPending] = useState<string | null>(null);
  // How many answers the thread had when this one was sent: the pending bubbles stay until the saved pair arrives.
  const [sentAt, setSentAt] = useState(0);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const busy = answer.status === "streaming" || generation.status === "streaming" || navigation.state === "submitting";
  const submittingIntent = navigation.formData?.get("intent");

  async function onAnswer(event: React.FormEvent<HTMLFormElement>) {
    const message = String(new FormData(event.currentTarget).get("message") ?? "").trim();
    if (!message) return;
    event.preventDefault();
    setPending(message);
    setSentAt(conversation.qaPairs.length);
    const result = await answer.start(`/api/projects/${projectId}/conversation/stream`, { message });
    if (result.status === "done") {
      if (textarea.current) textarea.current.value = "";
      revalidator.revalidate();
    }
  }

  async function onGenerate(event: React.FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const result = await generation.start("/api/generate-prd/stream", {
      projectId,
      style: form.get("style"),
      regenerate: form.get("regenerate") === "true",
    });
    if (result.status === "done") navigate(`/projects/${projectId}`);
  }

  const showPending = pending && answer.status !== "idle" && (answer.status !== "done" || conversation.qaPairs.length <= sentAt);
  return (
    <div className="builder">
      <Notice message={notice} />
      <section className="card" aria-labelledby="builder-heading">
        <div className="card-header">
          <div>
            <h2 id="builder-heading">Build the PRD in a conversation</h2>
            <p>Answer the questions; each answer is saved. When you are ready, generate the PRD from your answers.</p>
          </div>
          <div className="inline">
            <a className="btn btn-secondary btn-sm" href={`/api/projects/${projectId}/chat-export?format=pdf`} download>
              Export PDF
            </a>
            <a className="btn btn-secondary btn-sm" href={`/api/projects/${projectId}/chat-export?format=csv`} download>
              Export CSV
            </a>
          </div>
        </div>
        <AnsweredBy {...answeredBy} />
        <ChatThread
          pairs={conversation.qaPairs}
          nextQuestion={conversation.nextQuestion}
          nextQuestionHtml={conversation.nextQuestionHtml}
          pending={showPending ? { answer: pending!, response: answer.text } : null}
        />
        {answer.status === "error" ? (
          <div className="alert alert-error" role="alert">
            <p>{answer.error}</p>
          </div>
        ) : null}
        {failure && failure.intent === "answer" ? <FormAlert state={failure} /> : null}
        {canEdit ? (
          <Form method="post" className="form answer-form" onSubmit={onAnswer}>
            <input type="hidden" name="intent" value="answer" />
            <div className="field">
              <label htmlFor="builder-message">{conversation.complete ? "Anything to add?" : "Your answer"}</label>
              <textarea
                id="builder-message"
                name="message"
                ref={textarea}
                rows={4}
                required
                maxLength={10000}
                defaultValue={failure?.intent === "answer" ? failure.values?.message : undefined}
                aria-invalid={failure?.fieldErrors?.message ? true : undefined}
                aria-describedby="builder-message-hint"
              />
              <span className="hint" id="builder-message-hint">
                Be specific: who has the problem, what they do today, numbers you know. You can answer in your own words.
              </span>
            </div>
            <div className="inline">
              <button type="submit" className="btn" disabled={busy}>
                {answer.status === "streaming" || submittingIntent === "answer" ? "Sending…" : "Send answer"}
              </button>
            </div>
          </Form>
        ) : (
          <p className="muted">You can read this conversation; only people who can edit the project can answer.</p>
        )}
      </section>

      {canEdit ? (
        <section className="card" aria-labelledby="generate-heading">
          <h2 id="generate-heading">{hasPrd ? "Regenerate the PRD" : "Generate the PRD"}</h2>
          <p className="muted">
            {conversation.qaPairs.length
              ? `Uses your ${plural(conversation.qaPairs.length, "answer")} and the project's template.`
              : "No answers yet: the PRD will be an outline with open questions. Answer a few questions first for a real draft."}{" "}
            {hasPrd ? "The current PRD stays in Versions; the generated one becomes the new version." : null}
          </p>
          {failure && failure.intent === "generate" ? <FormAlert state={failure} /> : null}
          {generation.status === "error" ? (
            <div className="alert alert-error" role="alert">
              <p>{generation.error}</p>
            </div>
          ) : null}
          <Form method="post" className="inline" onSubmit={onGenerate}>
            <input type="hidden" name="intent" value="generate" />
            <input type="hidden" name="regenerate" value={hasPrd ? "true" : "false"} />
            <label htmlFor="generate-style">Style</label>
            <select id="generate-style" name="style" defaultValue="comprehensive" className="input-sm">
              {PRD_STYLES.map((s) => (
                <option key={s} value={s}>
                  {s[0]!.toUpperCase() + s.slice(1)}
                </option>
              ))}
            </select>
            <button type="submit" className="btn" disabled={busy}>
              {generation.status === "streaming" || submittingIntent === "generate" ? "Generating…" : hasPrd ? "Regenerate PRD" : "Generate PRD"}
            </button>
          </Form>
          {generation.status === "streaming" || generation.status === "done" ? (
            <div className="generation">
              <AiProgress label="Writing the PRD" phase={generation.progress?.phase ?? "starting"} percent={generation.progress?.percent ?? 0} />
              <pre className="stream-preview" role="region" aria-label="PRD as it is written">
                {generation.text}
              </pre>
            </div>
          ) : null}
        </section>
      ) : null}

      {canEdit && conversation.qaPairs.length ? (
        <details className="card danger-zone">
          <summary>Start the conversation over</summary>
          <p className="muted">Deletes the saved answers. The PRD and its versions stay.</p>
          <PostButton intent="reset" className="btn btn-danger btn-sm">
            Clear the conversation
          </PostButton>
        </details>
      ) : null}
      {!canEdit && !conversation.qaPairs.length ? (
        <p className="muted">
          Nobody has started the conversation yet. <Link to={`/projects/${projectId}`}>Back to the document</Link>
        </p>
      ) : null}
    </div>
  );
}
