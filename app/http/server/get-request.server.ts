/**
 * A GET request as the API route modules read it: `method`, `url` and
 * `headers` at once, and a real Fetch `Request` only when something else is
 * asked for (its `signal`, `clone()`, a body reader...). Undici's Request
 * constructor parses the URL again and makes an AbortController for every
 * request; under load that was ~17 µs of a ~150 µs API read
 * (docs/benchmarks.md, step 13). Bodies, signals and clones behave
 * exactly as on the Request it stands for.
 */
export class GetRequest {
  readonly method = "GET";
  #real: Request | null = null;

  constructor(
    readonly url: string,
    readonly headers: Headers,
  ) {}

  /** The Request this object stands for, made on first need. */
  get request(): Request {
    return (this.#real ??= new Request(this.url, { method: "GET", headers: this.headers }));
  }

  get signal() {
    return this.request.signal;
  }
  get body() {
    return null;
  }
  get bodyUsed() {
    return this.#real?.bodyUsed ?? false;
  }
  get cache() {
    return this.request.cache;
  }
  get credentials() {
    return this.request.credentials;
  }
  get destination() {
    return this.request.destination;
  }
  get integrity() {
    return this.request.integrity;
  }
  get keepalive() {
    return this.request.keepalive;
  }
  get mode() {
    return this.request.mode;
  }
  get redirect() {
    return this.request.redirect;
  }
  get referrer() {
    return this.request.referrer;
  }
  get referrerPolicy() {
    return this.request.referrerPolicy;
  }
  clone() {
    return this.request.clone();
  }
  text() {
    return this.request.text();
  }
  json() {
    return this.request.json();
  }
  arrayBuffer() {
    return this.request.arrayBuffer();
  }
  blob() {
    return this.request.blob();
  }
  formData() {
    return this.request.formData();
  }
  get [Symbol.toStringTag]() {
    return "Request";
  }
}
