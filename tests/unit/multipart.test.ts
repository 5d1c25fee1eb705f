import { describe, expect, it } from "vitest";
import { AppError } from "~/domain/errors";
import { MAX_PARTS, parseMultipart } from "~/http/api/multipart.server";

const BOUNDARY = "----testboundary";

function multipartHead(field: string, filename: string, type = "text/plain") {
  return `--${BOUNDARY}\r\nContent-Disposition: form-data; name="${field}"; filename="${filename}"\r\nContent-Type: ${type}\r\n\r\n`;
}

/** A multipart POST whose body arrives as a stream (chunked: no Content-Length). */
const streamedRequest = (body: ReadableStream<Uint8Array>) =>
  new Request("http://x/", {
    method: "POST",
    body,
    duplex: "half",
    headers: { "Content-Type": `multipart/form-data; boundary=${BOUNDARY}` },
  } as RequestInit);

async function expectAppError(p: Promise<unknown>, code: string, status: number) {
  const error = await p.then(
    () => null,
    (e) => e,
  );
  expect(error).toBeInstanceOf(AppError);
  expect((error as AppError).code).toBe(code);
  expect((error as AppError).status).toBe(status);
}

describe("parseMultipart", () => {
  it("reads a file and text fields", async () => {
    const form = new FormData();
    form.append("projectId", "p1");
    form.append("file", new File(["hello world"], "notes.txt", { type: "text/plain" }));
    const req = new Request("http://x/", { method: "POST", body: form });
    const { files, fields } = await parseMultipart(req, { maxFileBytes: 1024, requiredFile: "file" });
    expect(fields).toEqual({ projectId: "p1" });
    expect(files.file).toMatchObject({ filename: "notes.txt", contentType: "text/plain", size: 11 });
    expect(files.file!.data.toString()).toBe("hello world");
  });

  it("refuses a declared Content-Length over the limit before reading", async () => {
    let pulled = 0;
    const body = new ReadableStream({
      pull() {
        pulled++;
      },
    });
    const req = new Request("http://x/", {
      method: "POST",
      body,
      duplex: "half",
      headers: { "Content-Type": `multipart/form-data; boundary=${BOUNDARY}`, "Content-Length": String(50 * 1024 * 1024) },
    } as RequestInit);
    await expectAppError(parseMultipart(req, { maxFileBytes: 1024 * 1024 }), "PAYLOAD_TOO_LARGE", 413);
    expect(pulled).toBeLessThanOrEqual(1);
  });

  it("refuses an over-limit file while streaming, without reading the rest", async () => {
    const encoder = new TextEncoder();
    let sent = 0;
    const chunk = new Uint8Array(16 * 1024).fill(97);
    // An endless upload with no Content-Length: only a streaming check can stop it.
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        controller.enqueue(encoder.encode(multipartHead("file", "big.bin", "application/octet-stream")));
      },
      pull(controller) {
        sent += chunk.byteLength;
        controller.enqueue(chunk);
      },
    });
    const req = streamedRequest(body);
    await expectAppError(parseMultipart(req, { maxFileBytes: 256 * 1024 }), "PAYLOAD_TOO_LARGE", 413);
    expect(sent).toBeGreaterThan(256 * 1024);
    expect(sent).toBeLessThan(2 * 1024 * 1024);
  });

  it("needs multipart/form-data (415) and the required file field (400)", async () => {
    await expectAppError(
      parseMultipart(new Request("http://x/", { method: "POST", body: "{}", headers: { "Content-Type": "application/json" } }), {
        maxFileBytes: 10,
      }),
      "UNSUPPORTED_MEDIA_TYPE",
      415,
    );
    const form = new FormData();
    form.append("other", "x");
    await expectAppError(
      parseMultipart(new Request("http://x/", { method: "POST", body: form }), { maxFileBytes: 10, requiredFile: "file" }),
      "VALIDATION_ERROR",
      400,
    );
  });

  it("refuses a chunked body of endless small fields after MAX_PARTS, without reading on", async () => {
    const encoder = new TextEncoder();
    let sent = 0;
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        if (sent >= 100_000) return controller.close();
        controller.enqueue(encoder.encode(`--${BOUNDARY}\r\nContent-Disposition: form-data; name="f${sent}"\r\n\r\nx\r\n`));
        sent++;
      },
    });
    const req = streamedRequest(body);
    await expectAppError(parseMultipart(req, { maxFileBytes: 1024 * 1024 }), "PAYLOAD_TOO_LARGE", 413);
    expect(sent).toBeLessThan(MAX_PARTS + 20);
  });

  it("counts every part against one total: ignored files cannot add up past the limit", async () => {
    const form = new FormData();
    // Each under the file limit; together far over it (the limit plus 64 KB of form overhead).
    for (let i = 0; i < 12; i++) form.append(`other${i}`, new File([new Uint8Array(9_000)], `x${i}.bin`));
    const req = new Request("http://x/", { method: "POST", body: form });
    await expectAppError(parseMultipart(req, { maxFileBytes: 10_000, fileFields: ["file"] }), "PAYLOAD_TOO_LARGE", 413);
  });
});
