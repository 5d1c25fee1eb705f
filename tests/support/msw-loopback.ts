import http from "node:http";
import type { AddressInfo } from "node:net";
import { getResponse, type RequestHandler } from "msw";

/**
 * msw handlers served on a real loopback socket, for a server in another
 * process (the production build in the browser journeys) that msw cannot
 * intercept. A request to http://127.0.0.1:<port>/<path> is answered as the
 * handlers answer `<origin>/<path>`, so the same stand-ins speak to both.
 */
export async function serveHandlers(handlers: RequestHandler[], origin: string) {
  const server = http.createServer(async (req, res) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const headers = new Headers();
    for (const [name, value] of Object.entries(req.headers)) if (typeof value === "string") headers.set(name, value);
    const body = chunks.length && req.method !== "GET" && req.method !== "HEAD" ? Buffer.concat(chunks) : undefined;
    const request = new Request(new URL(req.url ?? "/", origin), { method: req.method, headers, body });
    const response = await getResponse(handlers, request);
    if (!response) {
      res.writeHead(501, { "content-type": "text/plain" });
      return res.end(`No stand-in handler for ${req.method} ${req.url}`);
    }
    res.writeHead(response.status, Object.fromEntries(response.headers));
    res.end(Buffer.from(await response.arrayBuffer()));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
