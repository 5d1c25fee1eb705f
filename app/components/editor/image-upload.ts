/** Uploads a picture for the PRD (POST /api/upload/image) and returns its URL. */
export async function uploadImage(projectId: string, file: File): Promise<string> {
  const form = new FormData();
  form.set("file", file);
  form.set("projectId", projectId);
  const response = await fetch("/api/upload/image", { method: "POST", body: form });
  const body = (await response.json().catch(() => ({}))) as { url?: string; error?: string };
  if (!response.ok || !body.url) throw new Error(body.error ?? `The image could not be uploaded (${response.status}).`);
  return body.url;
}

export const imageFiles = (list: FileList | null | undefined) => Array.from(list ?? []).filter((f) => f.type.startsWith("image/"));
