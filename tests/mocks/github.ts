import { http, HttpResponse } from "msw";

/**
 * A GitHub REST stand-in at GITHUB_API_URL: the shapes @octokit/rest reads
 * (issues, repositories, the authenticated user) and GitHub's failures
 * (401 Bad credentials, 403 secondary rate limit with retry-after, 403
 * primary rate limit with x-ratelimit-remaining 0 / x-ratelimit-reset).
 */

export const GITHUB_API_URL = "https://github.test/api/v3";
export const GOOD_TOKEN = "ghp_goodtoken000000000000000000000000";

/** `deleted`: deleted in GitHub (GET answers 410 Gone, as GitHub does). */
type Issue = { id: number; number: number; title: string; body: string; labels: string[]; state: "open" | "closed"; repo: string; deleted?: boolean };
type Failure = { status: number; headers?: Record<string, string>; message: string };

/** `accepts`: which tokens GitHub takes (default: GOOD_TOKEN); the OAuth suite passes the tokens its token endpoint issued. */
export function createGithubMock(options: { accepts?: (token: string) => boolean } = {}) {
  const accepts = options.accepts ?? ((token: string) => token === GOOD_TOKEN);
  const issues: Issue[] = [];
  const calls: { method: string; path: string; body: any }[] = [];
  /** Answers for the next issue writes (POST or PATCH), in order; null lets that write through. */
  const failures: (Failure | null)[] = [];
  let nextId = 5000;
  const url = (repo: string, n: number) => `https://github.test/${repo}/issues/${n}`;
  const shape = (i: Issue) => ({
    id: i.id,
    number: i.number,
    html_url: url(i.repo, i.number),
    title: i.title,
    body: i.body,
    state: i.state,
    labels: i.labels.map((name, k) => ({ id: k + 1, name })),
  });
  // Octokit sends "token <t>"; GitHub also takes "Bearer <t>".
  const authorized = (request: Request) => {
    const token = /^(?:token|bearer) (\S+)$/i.exec(request.headers.get("authorization") ?? "")?.[1];
    return token !== undefined && accepts(token);
  };
  const refuse = () => HttpResponse.json({ message: "Bad credentials", documentation_url: "https://docs.github.com/rest" }, { status: 401 });
  const fail = () => {
    const f = failures.shift();
    return f ? HttpResponse.json({ message: f.message }, { status: f.status, headers: f.headers }) : null;
  };
  const handlers = [
    http.get(`${GITHUB_API_URL}/user`, ({ request }) => (authorized(request) ? HttpResponse.json({ login: "octocat", id: 1 }) : refuse())),
    http.get(`${GITHUB_API_URL}/user/repos`, ({ request }) =>
      authorized(request)
        ? HttpResponse.json([
            { full_name: "acme/app", html_url: "https://github.test/acme/app", permissions: { push: true }, has_issues: true, archived: false },
            { full_name: "acme/other", html_url: "https://github.test/acme/other", permissions: { push: true }, has_issues: true, archived: false },
            {
              full_name: "someone/readonly",
              html_url: "https://github.test/someone/readonly",
              permissions: { push: false },
              has_issues: true,
              archived: false,
            },
          ])
        : refuse(),
    ),
    http.post(`${GITHUB_API_URL}/repos/:owner/:repo/issues`, async ({ request, params }) => {
      if (!authorized(request)) return refuse();
      const body = (await request.json()) as { title: string; body: string; labels: string[] };
      calls.push({ method: "POST", path: new URL(request.url).pathname, body });
      const failed = fail();
      if (failed) return failed;
      const repo = `${params.owner}/${params.repo}`;
      const issue: Issue = {
        id: ++nextId,
        number: issues.filter((i) => i.repo === repo).length + 1,
        title: body.title,
        body: body.body,
        labels: body.labels ?? [],
        state: "open",
        repo,
      };
      issues.push(issue);
      return HttpResponse.json(shape(issue), { status: 201 });
    }),
    http.get(`${GITHUB_API_URL}/repos/:owner/:repo/issues/:number`, ({ request, params }) => {
      if (!authorized(request)) return refuse();
      const issue = issues.find((i) => i.repo === `${params.owner}/${params.repo}` && i.number === Number(params.number));
      if (issue?.deleted)
        return HttpResponse.json(
          { message: "This issue was deleted", documentation_url: "https://docs.github.com/rest/issues/issues#get-an-issue" },
          { status: 410 },
        );
      return issue ? HttpResponse.json(shape(issue)) : HttpResponse.json({ message: "Not Found" }, { status: 404 });
    }),
    http.patch(`${GITHUB_API_URL}/repos/:owner/:repo/issues/:number`, async ({ request, params }) => {
      if (!authorized(request)) return refuse();
      const body = (await request.json()) as Partial<{ title: string; body: string; labels: string[] }>;
      calls.push({ method: "PATCH", path: new URL(request.url).pathname, body });
      const failed = fail();
      if (failed) return failed;
      const issue = issues.find((i) => i.repo === `${params.owner}/${params.repo}` && i.number === Number(params.number));
      if (!issue) return HttpResponse.json({ message: "Not Found" }, { status: 404 });
      Object.assign(issue, { title: body.title ?? issue.title, body: body.body ?? issue.body, labels: body.labels ?? issue.labels });
      return HttpResponse.json(shape(issue));
    }),
  ];
  return { handlers, issues, calls, failures, shape };
}
