import { useCallback, useEffect, useRef, useState } from "react";

/** Longest recording, in seconds: it stops by itself then (10 minutes of speech is far below the 25 MB upload limit). */
export const MAX_RECORDING_SECONDS = 600;

const TYPES = ["audio/webm;codecs=opus", "audio/webm", "audio/mp4", "audio/ogg;codecs=opus"];

function pickType() {
  return TYPES.find((t) => typeof MediaRecorder.isTypeSupported === "function" && MediaRecorder.isTypeSupported(t));
}

function extensionOf(mime: string) {
  if (mime.includes("mp4")) return "m4a";
  if (mime.includes("ogg")) return "ogg";
  return "webm";
}

/** What went wrong opening the microphone, said plainly, with the way out. */
export function microphoneError(error: unknown) {
  const name = error instanceof Error || error instanceof DOMException ? error.name : "";
  if (name === "NotAllowedError" || name === "SecurityError" || name === "PermissionDeniedError") {
    return "Microphone access was refused. Allow the microphone for this site in your browser's settings, or upload a recording instead.";
  }
  if (name === "NotFoundError" || name === "DevicesNotFoundError" || name === "OverconstrainedError") {
    return "No microphone was found. Connect one, or upload a recording instead.";
  }
  if (name === "NotReadableError" || name === "AbortError") {
    return "The microphone could not be opened: another app may be using it. Close that app, or upload a recording instead.";
  }
  return "The microphone could not be opened. Upload a recording instead.";
}

export type RecorderStatus = "idle" | "starting" | "recording";

/**
 * Records from the microphone with MediaRecorder. `onRecorded` gets the
 * recording as a file after Stop (not after Discard). The microphone is
 * released on stop and when the component goes away.
 */
export function useRecorder(onRecorded: (file: File) => void) {
  const [status, setStatus] = useState<RecorderStatus>("idle");
  const [seconds, setSeconds] = useState(0);
  const [error, setError] = useState<string | null>(null);
  const recorder = useRef<MediaRecorder | null>(null);
  const stream = useRef<MediaStream | null>(null);
  const chunks = useRef<Blob[]>([]);
  const timer = useRef<number | undefined>(undefined);
  const discard = useRef(false);
  const deliver = useRef(onRecorded);
  deliver.current = onRecorded;

  const release = useCallback(() => {
    window.clearInterval(timer.current);
    for (const track of stream.current?.getTracks() ?? []) track.stop();
    stream.current = null;
    recorder.current = null;
  }, []);

  const stop = useCallback(() => {
    if (recorder.current && recorder.current.state !== "inactive") recorder.current.stop();
  }, []);

  useEffect(
    () => () => {
      discard.current = true;
      stop();
      release();
    },
    [stop, release],
  );

  const start = useCallback(async () => {
    setError(null);
    if (typeof window.MediaRecorder === "undefined" || !navigator.mediaDevices?.getUserMedia) {
      setError("This browser cannot record audio on this page (recording needs a secure https address). Upload a recording instead.");
      return;
    }
    setStatus("starting");
    let media: MediaStream;
    try {
      media = await navigator.mediaDevices.getUserMedia({ audio: true });
    } catch (e) {
      setStatus("idle");
      setError(microphoneError(e));
      return;
    }
    const type = pickType();
    let rec: MediaRecorder;
    try {
      rec = new MediaRecorder(media, type ? { mimeType: type } : undefined);
    } catch {
      for (const track of media.getTracks()) track.stop();
      setStatus("idle");
      setError("This browser cannot record audio. Upload a recording instead.");
      return;
    }
    chunks.current = [];
    discard.current = false;
    rec.ondataavailable = (event) => {
      if (event.data.size) chunks.current.push(event.data);
    };
    rec.onerror = () => {
      discard.current = true;
      setError("The recording stopped because of a microphone error. Try again, or upload a recording instead.");
    };
    rec.onstop = () => {
      const mime = rec.mimeType || type || "audio/webm";
      release();
      setStatus("idle");
      if (discard.current) return;
      const blob = new Blob(chunks.current, { type: mime });
      if (!blob.size) {
        setError("Nothing was recorded. Check the microphone and try again.");
        return;
      }
      deliver.current(new File([blob], `recording.${extensionOf(mime)}`, { type: mime }));
    };
    recorder.current = rec;
    stream.current = media;
    rec.start(1000);
    const startedAt = Date.now();
    setSeconds(0);
    setStatus("recording");
    timer.current = window.setInterval(() => {
      const s = Math.floor((Date.now() - startedAt) / 1000);
      setSeconds(s);
      if (s >= MAX_RECORDING_SECONDS) stop();
    }, 250);
  }, [release, stop]);

  const cancel = useCallback(() => {
    discard.current = true;
    stop();
  }, [stop]);

  return { status, seconds, error, setError, start, stop, cancel };
}

/** 75 → "1:15". */
export const clock = (seconds: number) => `${Math.floor(seconds / 60)}:${String(seconds % 60).padStart(2, "0")}`;
