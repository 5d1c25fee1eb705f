declare module "autocannon" {
  interface Result {
    requests: { average: number };
    latency: { p50: number; p99: number; average: number };
    non2xx: number;
    errors: number;
    timeouts: number;
  }
  function autocannon(options: {
    url: string;
    headers?: Record<string, string>;
    connections?: number;
    duration?: number;
    method?: string;
    body?: string;
    requests?: { setupRequest?: (request: { path: string; [k: string]: unknown }) => { path: string; [k: string]: unknown } }[];
  }): Promise<Result>;
  export default autocannon;
}
