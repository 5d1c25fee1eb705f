/**
 * The program of the document-parse worker (parse-worker.server.ts runs it
 * with `new Worker(code, { eval: true })`, so it needs no file of its own in
 * the server bundle). The parent resolves pdf.js (unpdf) and mammoth to file
 * URLs and sends them with the document bytes; the worker answers one
 * message and ends:
 *   {text, pages?, cut} | {html, cut} | {failed: "password" | "damaged"}
 * V8's heap limit (resourceLimits) does not count ArrayBuffers, where
 * inflated streams live, so the worker watches its own isolate's external
 * memory and exits with EXIT_BUFFERS when it passes `bufferLimit`.
 */
export const EXIT_BUFFERS = 75;

export const PARSE_WORKER_SCRIPT = `
const { parentPort, workerData } = require("node:worker_threads");
const v8 = require("node:v8");
const { kind, data, urls, bufferLimit, maxChars } = workerData;

const overBuffers = () => v8.getHeapStatistics().external_memory > bufferLimit;
const watch = setInterval(() => { if (overBuffers()) process.exit(${EXIT_BUFFERS}); }, 10);

const capped = (s) => (s.length > maxChars ? { value: s.slice(0, maxChars), cut: true } : { value: s, cut: false });

async function pdf() {
  const { getDocumentProxy, extractText } = await import(urls.unpdf);
  let doc;
  try {
    doc = await getDocumentProxy(data, { verbosity: 0 });
  } catch (error) {
    return { failed: error && error.name === "PasswordException" ? "password" : "damaged" };
  }
  try {
    const { text, totalPages } = await extractText(doc, { mergePages: false });
    const { value, cut } = capped(text.join("\\n\\n"));
    return { text: value, pages: totalPages, cut };
  } catch {
    return { failed: "damaged" };
  } finally {
    await doc.destroy().catch(() => {});
  }
}

async function docx() {
  const mammoth = (await import(urls.mammoth)).default;
  try {
    const buffer = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
    // Images are never read: the text is all that is kept.
    const convertImage = mammoth.images.imgElement(() => ({ src: "" }));
    const { value, cut } = capped((await mammoth.convertToHtml({ buffer }, { convertImage })).value);
    return { html: value, cut };
  } catch {
    return { failed: "damaged" };
  }
}

(kind === "pdf" ? pdf() : docx()).then((answer) => {
  if (overBuffers()) process.exit(${EXIT_BUFFERS});
  clearInterval(watch);
  parentPort.postMessage(answer);
});
`;
