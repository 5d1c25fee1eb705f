import { http, HttpResponse } from "msw";
import { setupServer } from "msw/node";
import { loopbackOnly } from "./unhandled";

/**
 * msw handlers for the api.stripe.com endpoints the billing code calls. The
 * SDK sends form-encoded bodies (`line_items[0][price]=...`); each request is
 * recorded as its decoded key/value pairs for assertions.
 */

export interface StripeRequest {
  path: string;
  form: Record<string, string>;
  authorization: string | null;
}

export function createStripeMock() {
  const requests: StripeRequest[] = [];
  let counter = 0;
  const record = async (request: Request) => {
    const form = Object.fromEntries(new URLSearchParams(await request.text()));
    const entry = { path: new URL(request.url).pathname, form, authorization: request.headers.get("Authorization") };
    requests.push(entry);
    return entry;
  };
  const handlers = [
    http.post("https://api.stripe.com/v1/checkout/sessions", async ({ request }) => {
      const { form } = await record(request);
      const id = `cs_test_${++counter}`;
      return HttpResponse.json({
        id,
        object: "checkout.session",
        mode: form.mode,
        client_reference_id: form.client_reference_id ?? null,
        customer: form.customer ?? null,
        metadata: Object.fromEntries(
          Object.entries(form)
            .filter(([k]) => k.startsWith("metadata["))
            .map(([k, v]) => [k.slice("metadata[".length, -1), v]),
        ),
        url: `https://checkout.stripe.com/c/pay/${id}`,
      });
    }),
    http.post("https://api.stripe.com/v1/billing_portal/sessions", async ({ request }) => {
      const { form } = await record(request);
      return HttpResponse.json({
        id: `bps_test_${++counter}`,
        object: "billing_portal.session",
        customer: form.customer,
        return_url: form.return_url,
        url: `https://billing.stripe.com/p/session/test_${counter}`,
      });
    }),
  ];
  return { requests, handlers };
}

export function setupStripeMockServer(mock = createStripeMock()) {
  const server = setupServer(...mock.handlers);
  const listen = server.listen.bind(server);
  server.listen = (options = {}) => listen({ onUnhandledRequest: loopbackOnly, ...options });
  return { server, mock };
}
