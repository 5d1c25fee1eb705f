import { afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { db } from "~/db.server";
import { setFlagResolver } from "~/domain/flags/flags.server";
import { clock, microphoneError } from "~/components/builder/use-recorder";
import { makePdf, makeWav } from "../fixtures/documents";
import { createOpenAIAudioMock } from "../mocks/openai-audio";
import { resetAiMocks, setupAiMockServer } from "../mocks/server";
import { signedUpClient, type TestClient } from "../support/client";
import { parseHtml } from "../support/html";
import { type Account, joinOrg, setPlan } from "../support/org";
import { pageText } from "../support/page";

/** The builder page's tools, JavaScript off: answer by voice, download the conversation, save my answers as memories. */

const server = setupAiMockServer();
const audio = createOpenAIAudioMock();
let transcriptionOn = true;
beforeAll(() => {
  server.listen();
  server.use(audio.handler);
  return () => server.close();
});
afterEach(() => {
  resetAiMocks();
  audio.reset();
});
beforeEach(() => {
  transcriptionOn = true;
  setFlagResolver((_actor, key) => key !== "transcription" || transcriptionOn);
});

const builder = (projectId: string) => `/projects/${projectId}/builder`;
const newProject = async (client: TestClient, name: string) => {
  const res = await client.post("/api/projects", { name });
  expect(res.status, res.text).toBe(201);
  return res.body.id as string;
};
const answer = async (client: TestClient, projectId: string, message: string) =>
  expect((await client.post(`/api/projects/${projectId}/chat`, { message })).status).toBe(200);

/** Posts a recording to the builder page as its upload form does without JavaScript. */
function postRecording(client: TestClient, projectId: string, file: { bytes: Uint8Array; name: string; type?: string } | null) {
  const form = new FormData();
  form.append("intent", "transcribe");
  if (file) form.append("file", new File([file.bytes as BlobPart], file.name, file.type ? { type: file.type } : {}));
  return client.call("POST", builder(projectId), { body: form });
}
const postForm = (client: TestClient, path: string, fields: Record<string, string>) =>
  client.call("POST", path, { body: new URLSearchParams(fields), headers: { "Content-Type": "application/x-www-form-urlencoded" } });

const wav = () => ({ bytes: makeWav(1), name: "answer.wav", type: "audio/wav" });
const answerBox = (html: string) => parseHtml(html).querySelector<HTMLTextAreaElement>("textarea#builder-message");
const voiceError = (html: string) => parseHtml(html).querySelector("#voice-error")?.textContent ?? null;
const transcribedMinutes = async (orgId: string) =>
  (await db.selectFrom("uploadUsage").select("amount").where("orgId", "=", orgId).where("metric", "=", "transcription_minutes").execute()).reduce(
    (n, r) => n + r.amount,
    0,
  );

describe("answer by voice", () => {
  let talker: Account;
  let projectId: string;
  beforeAll(async () => {
    talker = await signedUpClient({ name: "Vera Voice" });
    await setPlan(talker.organization.id, "pro");
    expect((await talker.client.post("/api/user/api-keys", { provider: "provider_a", key: "sk-voice-personal-aaaaaaaaaaaa" })).status).toBe(201);
    projectId = await newProject(talker.client, "Spoken answers");
  });

  it("offers an upload form that posts to the builder, and puts the transcript in the answer box without sending it", async () => {
    const page = await talker.client.get(builder(projectId));
    expect(page.status).toBe(200);
    const doc = parseHtml(page.text);
    const input = doc.querySelector<HTMLInputElement>('input[type="file"][name="file"]')!;
    expect(input.getAttribute("accept")).toBe("audio/*");
    expect(doc.querySelector(`label[for="${input.id}"]`)?.textContent).toBe("Upload a recording");
    const form = input.closest("form")!;
    expect(form.getAttribute("method")).toBe("post");
    expect(form.getAttribute("enctype")).toBe("multipart/form-data");
    expect(form.getAttribute("action")).toBe(builder(projectId));
    expect(form.querySelector('input[name="intent"]')?.getAttribute("value")).toBe("transcribe");
    expect(form.querySelector('button[type="submit"]')?.textContent).toBe("Transcribe recording");
    // Recording needs JavaScript: the button appears only once the page runs.
    expect(pageText(page)).not.toContain("Record answer");

    audio.next({ text: "Nurses forget to log **handovers** & <b>shifts</b>.", duration: 75 });
    const res = await postRecording(talker.client, projectId, wav());
    expect(res.status, res.text).toBe(200);
    expect(answerBox(res.text)?.textContent).toBe("Nurses forget to log **handovers** & <b>shifts</b>.");
    expect(pageText(res)).toContain("The transcript is in the answer box: check it, edit it, then send your answer.");
    expect(voiceError(res.text)).toBeNull();
    expect(audio.requests.at(-1)).toMatchObject({ model: "whisper-1", fileSize: makeWav(1).length });
    expect(audio.requests.at(-1)!.headers.authorization).toBe("Bearer sk-voice-personal-aaaaaaaaaaaa");
    // Metered like POST /api/upload/transcribe, and nothing was answered.
    expect(await transcribedMinutes(talker.organization.id)).toBe(2);
    expect((await talker.client.get(`/api/projects/${projectId}/conversation`)).body.qaPairs).toEqual([]);
  });

  it("answers the recorder's fetcher (a .data request) with the transcript as data, not a page", async () => {
    audio.next({ text: "Handover notes are lost twice a week.", duration: 20 });
    const form = new FormData();
    form.append("intent", "transcribe");
    form.append("file", new File([makeWav(1) as BlobPart], "recording.webm", { type: "audio/webm" }));
    const res = await talker.client.call("POST", `${builder(projectId)}.data`, { body: form });
    expect(res.status).toBe(200);
    expect(res.headers.get("Location")).toBeNull();
    expect(res.text).toContain("Handover notes are lost twice a week.");
    expect(res.text).not.toContain("<html");
    expect((await talker.client.get(`/api/projects/${projectId}/conversation`)).body.qaPairs).toEqual([]);
  });

  it("shows the API's errors next to the control: too large, not audio, no file; the provider is never called", async () => {
    const tooBig = await postRecording(talker.client, projectId, { bytes: new Uint8Array(25 * 1024 * 1024 + 1), name: "long.wav", type: "audio/wav" });
    expect(tooBig.status).toBe(413);
    expect(voiceError(tooBig.text)).toBe("The file is larger than 25 MB");
    const doc = parseHtml(tooBig.text);
    expect(doc.querySelector("#voice-file")?.getAttribute("aria-invalid")).toBe("true");
    expect(doc.querySelector("#voice-file")?.getAttribute("aria-describedby")).toContain("voice-error");

    const notAudio = await postRecording(talker.client, projectId, { bytes: await makePdf([["Minutes"]]), name: "minutes.mp3", type: "audio/mpeg" });
    expect(notAudio.status).toBe(415);
    expect(voiceError(notAudio.text)).toMatch(/^This file is .*Upload MP3, MP4\/M4A, WAV, WebM, Ogg or FLAC audio\.$/);

    const none = await postRecording(talker.client, projectId, null);
    expect(none.status).toBe(400);
    expect(voiceError(none.text)).toBe("A file is required");
    expect(audio.requests).toHaveLength(0);
    expect(answerBox(none.text)?.textContent).toBe("");
  });

  it("says why when transcription cannot run, and hides the controls when the feature is off", async () => {
    const plain = await signedUpClient({ name: "Kim Keyless" });
    await setPlan(plain.organization.id, "pro");
    const own = await newProject(plain.client, "No key yet");
    const page = await plain.client.get(builder(own));
    expect(pageText(page)).toContain("Transcription needs an OpenAI API key");
    expect(parseHtml(page.text).querySelector('input[name="file"]')).toBeNull();
    const refused = await postRecording(plain.client, own, wav());
    expect(refused.status).toBe(409);
    // The reason is already on the page: said once, beside the voice section's heading.
    expect(pageText(refused).match(/Transcription needs an OpenAI API key/g)).toHaveLength(1);
    expect(parseHtml(refused.text).querySelector('input[name="file"]')).toBeNull();

    transcriptionOn = false;
    const off = await talker.client.get(builder(projectId));
    expect(pageText(off)).not.toContain("Answer by voice");
    const disabled = await postRecording(talker.client, projectId, wav());
    expect(disabled.status).toBe(403);
    expect(parseHtml(disabled.text).querySelector('[role="alert"]')?.textContent).toBe("The transcription feature is not enabled for your organization");
    expect(audio.requests).toHaveLength(0);
  });

  it("refuses a recording for another organization's project (404), before the provider is called", async () => {
    const outsider = await signedUpClient({ name: "Otto Outside" });
    await setPlan(outsider.organization.id, "pro");
    expect((await outsider.client.post("/api/user/api-keys", { provider: "provider_a", key: "sk-voice-outsider-bbbbbbbbbbbb" })).status).toBe(201);
    const res = await postRecording(outsider.client, projectId, wav());
    expect(res.status).toBe(404);
    expect(audio.requests).toHaveLength(0);
  });
});

describe("downloading the conversation", () => {
  it("links every format of the export, each downloaded with the session cookie; another organization gets 404", async () => {
    const owner = await signedUpClient({ name: "Dora Download" });
    const projectId = await newProject(owner.client, "Clinic rota");
    await answer(owner.client, projectId, "Ward nurses swap shifts by text message today.");
    await answer(owner.client, projectId, "=SUM(A1) is how they count hours.");

    const page = await owner.client.get(builder(projectId));
    const links = [...parseHtml(page.text).querySelectorAll('[aria-label="Download the conversation"] a')].map((a) => [
      a.textContent,
      a.getAttribute("href"),
      a.hasAttribute("download"),
    ]);
    expect(links).toEqual([
      ["Download conversation (PDF)", `/api/projects/${projectId}/chat-export?format=pdf`, true],
      ["Download conversation (CSV)", `/api/projects/${projectId}/chat-export?format=csv`, true],
      ["Download conversation (JSON)", `/api/projects/${projectId}/chat-export?format=json`, true],
    ]);

    const json = await owner.client.get(links[2]![1] as string);
    expect(json.status).toBe(200);
    expect(json.headers.get("Content-Type")).toBe("application/json; charset=utf-8");
    expect(json.headers.get("Content-Disposition")).toMatch(/^attachment; filename="clinic-rota-conversation\.json"/);
    expect(json.body.project).toEqual({ id: projectId, name: "Clinic rota" });
    expect(json.body.qaPairs.map((p: { answer: string }) => p.answer)).toEqual([
      "Ward nurses swap shifts by text message today.",
      "=SUM(A1) is how they count hours.",
    ]);

    const csv = await owner.client.get(links[1]![1] as string);
    expect(csv.status).toBe(200);
    expect(csv.headers.get("Content-Type")).toBe("text/csv; charset=utf-8");
    expect(csv.text).toContain("Ward nurses swap shifts by text message today.");
    expect(csv.text).toContain("'=SUM(A1) is how they count hours.");

    const pdf = await owner.client.get(links[0]![1] as string);
    expect(pdf.status).toBe(200);
    expect(pdf.headers.get("Content-Type")).toBe("application/pdf");
    expect(pdf.text.startsWith("%PDF-")).toBe(true);

    const outsider = await signedUpClient({ name: "Nosy Neighbour" });
    for (const [, href] of links) expect((await outsider.client.get(href as string)).status).toBe(404);
    expect((await outsider.client.get(builder(projectId))).status).toBe(404);
  });
});

describe("save what I said as memories", () => {
  it("extracts the signed-in person's own answers with the offline drafter and lists what was saved", async () => {
    const owner = await signedUpClient({ name: "Mia Memory" });
    const colleague = await joinOrg(owner.organization.id, "admin", "Cole Colleague");
    const projectId = await newProject(owner.client, "Shift swap");
    await answer(owner.client, projectId, "We decided to launch in Germany first. I prefer short PRDs with tables.");
    await answer(colleague.client, projectId, "We will use Postgres for the database.");

    const page = await owner.client.get(builder(projectId));
    const button = [...parseHtml(page.text).querySelectorAll("#memories button")].find((b) => b.textContent === "Save what I said as memories");
    expect(button?.closest("form")?.querySelector('input[name="intent"]')?.getAttribute("value")).toBe("memories");
    expect(pageText(page)).toContain("Reads your 1 answer in this conversation");

    const posted = await postForm(owner.client, builder(projectId), { intent: "memories" });
    expect(posted.status, posted.text).toBe(302);
    const location = posted.headers.get("Location")!;
    expect(location).toMatch(new RegExp(`^/projects/${projectId}/builder\\?memories=[^#]+#memories$`));

    const mine = await db.selectFrom("memories").selectAll().where("userId", "=", owner.user.id).orderBy("content").execute();
    expect(mine.map((m) => m.content)).toEqual(["I prefer short PRDs with tables.", "We decided to launch in Germany first."]);
    expect(mine.every((m) => m.sourceProjectId === projectId && m.isActive === 1)).toBe(true);
    // Only what this person said, saved for this person only.
    expect(await db.selectFrom("memories").selectAll().where("userId", "=", colleague.user.id).execute()).toEqual([]);

    const shown = await owner.client.get(location.split("#")[0]!);
    const section = parseHtml(shown.text).querySelector("#memories")!;
    expect(section.querySelector('[role="status"].alert')?.textContent).toBe("Found 2, saved 2. Read by the built-in offline drafter (rule-based, no AI).");
    expect([...section.querySelectorAll("li")].map((li) => li.textContent)).toEqual([
      "Decision Process We decided to launch in Germany first.",
      "Preference Style I prefer short PRDs with tables.",
    ]);
    expect(section.querySelector('a[href="/settings/memory"]')?.textContent).toBe("Review and edit your memories in Settings → Memory");
    expect(parseHtml(shown.text).querySelector(".builder > .alert")).toBeNull();

    // Running it again keeps the memories already saved.
    const again = await postForm(owner.client, builder(projectId), { intent: "memories" });
    const second = await owner.client.get(again.headers.get("Location")!.split("#")[0]!);
    expect(pageText(second)).toContain("Found 2, saved 0 (2 you already had).");
    expect(await db.selectFrom("memories").select("id").where("userId", "=", owner.user.id).execute()).toHaveLength(2);

    // Someone else opening the same address sees none of them.
    const peek = await colleague.client.get(location.split("#")[0]!);
    expect(parseHtml(peek.text).querySelectorAll("#memories li")).toHaveLength(0);
    expect(parseHtml(peek.text).querySelector("#memories")?.textContent).not.toContain("launch in Germany first");
  });

  it("shows the error next to the button when there is nothing of mine to read", async () => {
    const owner = await signedUpClient({ name: "Ned Nothing" });
    const colleague = await joinOrg(owner.organization.id, "admin", "Ada Answers");
    const projectId = await newProject(owner.client, "Quiet project");
    await answer(colleague.client, projectId, "We decided to pilot in two wards.");
    const res = await postForm(owner.client, builder(projectId), { intent: "memories" });
    expect(res.status).toBe(400);
    const error = parseHtml(res.text).querySelector("#memories #memories-error");
    expect(error?.getAttribute("role")).toBe("alert");
    expect(error?.textContent).toMatch(/^You have not answered any question in this conversation yet/);
    expect(await db.selectFrom("memories").select("id").where("userId", "=", owner.user.id).execute()).toEqual([]);
  });

  it("refuses another organization's user (404) and saves nothing for them", async () => {
    const owner = await signedUpClient({ name: "Pia Private" });
    const projectId = await newProject(owner.client, "Private plans");
    await answer(owner.client, projectId, "We decided to launch in Spain first.");
    const outsider = await signedUpClient({ name: "Eve Elsewhere" });
    const res = await postForm(outsider.client, builder(projectId), { intent: "memories" });
    expect(res.status).toBe(404);
    expect(await db.selectFrom("memories").select("id").where("userId", "=", outsider.user.id).execute()).toEqual([]);
    expect(await db.selectFrom("memories").select("id").where("userId", "=", owner.user.id).execute()).toEqual([]);
  });
});

describe("recording in the browser", () => {
  it("words each microphone failure with the way out, and shows the timer as m:ss", () => {
    const failure = (name: string) => microphoneError(new DOMException("x", name));
    expect(failure("NotAllowedError")).toBe(
      "Microphone access was refused. Allow the microphone for this site in your browser's settings, or upload a recording instead.",
    );
    expect(failure("NotFoundError")).toBe("No microphone was found. Connect one, or upload a recording instead.");
    expect(failure("NotReadableError")).toMatch(/^The microphone could not be opened: another app may be using it/);
    expect(microphoneError(new Error("odd"))).toBe("The microphone could not be opened. Upload a recording instead.");
    expect([clock(0), clock(9), clock(75), clock(600)]).toEqual(["0:00", "0:09", "1:15", "10:00"]);
  });
});
