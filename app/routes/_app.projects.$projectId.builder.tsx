import type { ActionFunctionArgs, LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { data as withHeaders, redirect } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useNavigate, useNavigation, useRevalidator } from "@remix-run/react";
import { PostButton } from "~/components/post-button";
import { useCallback, useRef, useState } from "react";
import { resolveProvider } from "~/ai/keys.server";
import { PRD_STYLES } from "~/ai/schemas";
import { renderMarkdown } from "~/utils/markdown.server";
import { AiProgress, AnsweredBy } from "~/components/ai/progress";
import { failureMessage, isInputError, RunError, runErrorId, runFailureWords } from "~/components/ai/run-error";
import { useAiStream } from "~/components/ai/use-ai-stream";
import { ChatThread } from "~/components/ai/chat-thread";
import { AnswerMemories } from "~/components/builder/answer-memories";
import { ConversationDownloads } from "~/components/builder/conversation-downloads";
import { isTranscript, type TranscribeResult, VoiceAnswer } from "~/components/builder/voice-answer";
import { FormAlert, type FormState, Notice } from "~/components/forms";
import { countMyAnswers, memoriesById } from "~/domain/builder/answer-memories.server";
import { assertCanAnswerByVoice, transcribeAnswer, voiceAnswerStatus } from "~/domain/builder/voice-answer.server";
import { MAX_AUDIO_BYTES } from "~/domain/uploads/uploads.schema";
import { parseMultipart } from "~/http/api/multipart.server";
import { assertSameOrigin } from "~/http/csrf.server";
import { isMultipart, saveMemoriesAction, savedMemoryIds } from "~/http/ui/builder-tools.server";
import { mustReplay, replayToPrimary } from "~/ops/replay.server";
import builderToolsStyles from "~/styles/builder-tools.css?url";
import aiRunStyles from "~/styles/ai-runs.css?url";
import { generatePrdSchema, projectChatSchema } from "~/domain/builder/builder.schema";
import { getConversation, projectChat, resetConversation } from "~/domain/builder/conversation.server";
import { generatePrd } from "~/domain/builder/generate.server";
import type { Actor } from "~/domain/actor";
import { getProject } from "~/domain/projects/projects.server";
import { readFlash, redirectWithNotice } from "~/http/ui/flash.server";
import * as builder from "~/http/api/contracts/builder";
import * as memory from "~/http/api/contracts/memory";
import { underPolicy } from "~/http/ui/intent-action.server";
import { formFailure, formValues, orPageError, requireUiActor } from "~/http/ui/ui.server";
import { plural } from "~/utils/plural";

export const meta: MetaFunction = () => [{ title: "AI builder · PRD Studio" }];
export const links: LinksFunction = () => [
  { rel: "stylesheet", href: builderToolsStyles },
  { rel: "stylesheet", href: aiRunStyles },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const project = await orPageError(getProject(actor, params.projectId!));
  const savedIds = savedMemoryIds(request);
  const [conversation, resolved, { flash, headers }, voice, myAnswers, savedMemories] = await Promise.all([
    getConversation(actor, project.id),
    resolveProvider({ userId: actor.user.id, orgId: actor.org.id }),
    readFlash(request),
    voiceAnswerStatus(actor, project.id),
    countMyAnswers(actor, project.id),
    savedIds ? memoriesById(actor, savedIds) : null,
  ]);
  const flashNotice = flash?.kind === "notice" ? flash.message : null;
  return withHeaders(
    {
      projectId: project.id,
      canEdit: project.permissions.canEdit,
      hasPrd: Boolean(project.prd),
      prd: project.prd ? { versionNumber: project.prd.versionNumber, updatedAt: project.prd.updatedAt } : null,
      conversation: {
        ...conversation,
        // Questions and answers are Markdown (the drafter bolds, lists and quotes): shown rendered, sanitized.
        qaPairs: conversation.qaPairs.map((p) => ({
          ...p,
          questionHtml: renderMarkdown(p.question),
          answerHtml: renderMarkdown(p.answer),
          responseHtml: renderMarkdown(p.response),
        })),
        nextQuestionHtml: conversation.nextQuestion ? renderMarkdown(conversation.nextQuestion) : null,
      },
      answeredBy: { source: resolved.source, provider: resolved.provider, model: resolved.model },
      voice: voice ? { ...voice, maxBytes: MAX_AUDIO_BYTES } : null,
      myAnswers,
      // After "Save what I said as memories" the result is shown in that section, not at the top.
      savedMemories: savedMemories ? { notice: flashNotice, memories: savedMemories } : null,
      notice: savedMemories ? null : flashNotice,
    },
    { headers },
  );
}

/** A recording posted to the page (JavaScript on or off) comes back as the transcript for the answer box. */
async function transcribeAction(actor: Actor, projectId: string, request: Request) {
  if (mustReplay(request)) throw replayToPrimary();
  try {
    assertSameOrigin(request);
    // Refused before the audio is read: no access, flag off, no minutes left, no OpenAI key.
    await assertCanAnswerByVoice(actor, projectId);
    const { files } = await parseMultipart(request, { maxFileBytes: MAX_AUDIO_BYTES, requiredFile: "file" });
    const { transcript } = await transcribeAnswer(actor, projectId, { data: files.file!.data }, request.signal);
    return { intent: "transcribe" as const, transcript };
  } catch (error) {
    return formFailure(error, {}, [], { intent: "transcribe" });
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const projectId = params.projectId!;
  // A recording (the only multipart form of the page): its transcript goes back to the answer box.
  if (isMultipart(request)) return transcribeAction(actor, projectId, request);
  const values = await formValues(request);
  const here = `/projects/${projectId}/builder`;
  try {
    // Each AI form under the policy of the /api operation it mirrors: the AI rate, and an AI slot while it runs.
    if (values.intent === "memories") {
      const provider = values.provider || undefined;
      return await underPolicy(actor, memory.extractMemories, { provider }, () => saveMemoriesAction(actor, projectId, provider, request));
    }
    if (values.intent === "reset") {
      await resetConversation(actor, projectId);
      return redirectWithNotice(here, "The conversation was cleared. Your PRD and its versions are unchanged.");
    }
    if (values.intent === "generate") {
      const input = generatePrdSchema.parse({ ...values, projectId });
      const result = await underPolicy(actor, builder.generatePrd, input, () => generatePrd(actor, input, request.signal));
      const message = `PRD generated as version ${result.version.number}${result.model === "builtin" ? " by the offline drafter" : ` with ${result.model}`}.${result.truncated ? " It was cut off at the model's output limit: check the end." : ""}`;
      return redirectWithNotice(`/projects/${projectId}`, message);
    }
    const input = projectChatSchema.parse({ message: values.message });
    await underPolicy(actor, builder.projectChat, { ...input, provider: values.provider }, () => projectChat(actor, projectId, input, request.signal));
    return redirect(`${here}#latest`);
  } catch (error) {
    return formFailure(error, values, [], { intent: values.intent ?? "answer" });
  }
}

export default function Builder() {
  const { projectId, canEdit, hasPrd, prd, conversation, answeredBy, voice, myAnswers, savedMemories, notice } = useLoaderData<typeof loader>();
  const actionData = useActionData<typeof action>();
  const transcribed = isTranscript(actionData) ? actionData : null;
  const failure = actionData && !transcribed ? (actionData as FormState) : null;
  const navigation = useNavigation();
  const revalidator = useRevalidator();
  const navigate = useNavigate();
  const answer = useAiStream();
  const generation = useAiStream();
  const [pending, setPending] = useState<string | null>(null);
  // How many answers the thread had when this one was sent: the pending bubbles stay until the saved pair arrives.
  const [sentAt, setSentAt] = useState(0);
  const textarea = useRef<HTMLTextAreaElement>(null);
  const lastGeneration = useRef<Record<string, unknown> | null>(null);
  // A transcript goes into the answer box after what is already there, for the person to check and send.
  const onTranscript = useCallback((text: string) => {
    const box = textarea.current;
    if (!box) return;
    box.value = box.value.trim() ? `${box.value.trimEnd()}\n\n${text}` : text;
    box.focus();
  }, []);
  const busy = answer.status === "streaming" || generation.status === "streaming" || navigation.state === "submitting";
  const submittingIntent = navigation.formData?.get("intent");

  async function onAnswer(event: React.FormEvent<HTMLFormElement>) {
    const message = String(new FormData(event.currentTarget).get("message") ?? "").trim();
    if (!message) return;
    event.preventDefault();
    await sendAnswer(message);
  }

  async function sendAnswer(message: string) {
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
    await generate({ projectId, style: form.get("style"), regenerate: form.get("regenerate") === "true" });
  }

  async function generate(body: Record<string, unknown>) {
    lastGeneration.current = body;
    const result = await generation.start("/api/generate-prd/stream", body);
    if (result.status === "done") navigate(`/projects/${projectId}`);
  }

  // A failed run's error sits under the button that started it, with "Try again" (same inputs); the thread and the PRD stay as they were.
  const answerError = runErrorId("answer");
  const generateError = runErrorId("generate");
  const answerFailure = failure?.intent === "answer" && answer.status === "idle" && submittingIntent !== "answer" ? failure : null;
  const generateFailure = failure?.intent === "generate" && generation.status === "idle" && submittingIntent !== "generate" ? failure : null;
  const answerFailed = answer.status === "error" || Boolean(answerFailure);
  const generateFailed = generation.status === "error" || Boolean(generateFailure);
  const currentPrd = prd
    ? {
        at: prd.updatedAt,
        href: `/projects/${projectId}`,
        what: `The current PRD${prd.versionNumber ? ` (version ${prd.versionNumber})` : ""}`,
        linkText: "open it",
      }
    : null;

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
          <ConversationDownloads projectId={projectId} />
        </div>
        <AnsweredBy {...answeredBy} />
        <ChatThread
          pairs={conversation.qaPairs}
          nextQuestion={conversation.nextQuestion}
          nextQuestionHtml={conversation.nextQuestionHtml}
          pending={showPending ? { answer: pending!, response: answer.text } : null}
        />
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
                defaultValue={transcribed ? transcribed.transcript : failure?.intent === "answer" ? failure.values?.message : undefined}
                aria-invalid={failure?.fieldErrors?.message ? true : undefined}
                aria-describedby="builder-message-hint"
              />
              <span className="hint" id="builder-message-hint">
                Be specific: who has the problem, what they do today, numbers you know. You can answer in your own words.
              </span>
            </div>
            <div className="inline">
              <button type="submit" className="btn" disabled={busy} aria-describedby={answerFailed ? answerError : undefined}>
                {answer.status === "streaming" || submittingIntent === "answer" ? "Sending…" : "Send answer"}
              </button>
            </div>
          </Form>
        ) : (
          <p className="muted">You can read this conversation; only people who can edit the project can answer.</p>
        )}
        {canEdit && answerFailed ? (
          <RunError
            id={answerError}
            message={answerFailure ? failureMessage(answerFailure) : runFailureWords(answer.error ?? "", answer.failure)}
            retry={
              answerFailure && isInputError(answerFailure)
                ? null
                : {
                    values: { intent: "answer", message: answerFailure?.values?.message ?? pending ?? "" },
                    onRetry: answer.status === "error" && pending ? () => void sendAnswer(pending) : undefined,
                    busy,
                  }
            }
          />
        ) : null}
        {canEdit && voice ? (
          <VoiceAnswer
            reason={voice.reason}
            maxBytes={voice.maxBytes}
            result={transcribed ?? (failure?.intent === "transcribe" ? (failure as TranscribeResult) : null)}
            onTranscript={onTranscript}
          />
        ) : null}
        {/* A recording posted after voice answers were switched off: the refusal still shows. */}
        {!voice && failure?.intent === "transcribe" ? <FormAlert state={failure} /> : null}
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
          <Form method="post" className="inline" onSubmit={onGenerate}>
            <input type="hidden" name="intent" value="generate" />
            <input type="hidden" name="regenerate" value={hasPrd ? "true" : "false"} />
            <label htmlFor="generate-style">Style</label>
            <select id="generate-style" name="style" defaultValue={generateFailure?.values?.style ?? "comprehensive"} className="input-sm">
              {PRD_STYLES.map((s) => (
                <option key={s} value={s}>
                  {s[0]!.toUpperCase() + s.slice(1)}
                </option>
              ))}
            </select>
            <button type="submit" className="btn" disabled={busy} aria-describedby={generateFailed ? generateError : undefined}>
              {generation.status === "streaming" || submittingIntent === "generate" ? "Generating…" : hasPrd ? "Regenerate PRD" : "Generate PRD"}
            </button>
          </Form>
          {generateFailed ? (
            <RunError
              id={generateError}
              message={generateFailure ? failureMessage(generateFailure) : runFailureWords(generation.error ?? "", generation.failure)}
              lastGood={currentPrd}
              retry={
                generateFailure && isInputError(generateFailure)
                  ? null
                  : {
                      values: generateFailure?.values ?? { intent: "generate", regenerate: hasPrd ? "true" : "false", style: "comprehensive" },
                      onRetry: generation.status === "error" && lastGeneration.current ? () => void generate(lastGeneration.current!) : undefined,
                      busy,
                    }
              }
            />
          ) : null}
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

      {myAnswers || savedMemories || failure?.intent === "memories" ? (
        <AnswerMemories myAnswers={myAnswers} saved={savedMemories} error={failure?.intent === "memories" ? (failure.formError ?? null) : null} />
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
