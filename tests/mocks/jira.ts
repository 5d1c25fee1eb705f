import { http, HttpResponse } from "msw";

/**
 * A Jira Cloud REST v3 stand-in at JIRA_SITE (allowed in tests through
 * JIRA_ALLOWED_HOSTS): /myself, paginated /project/search ({values, isLast}),
 * POST /issue → 201 {id, key, self}, PUT /issue/{key} → 204, GET /issue/{key}
 * with fields.status.statusCategory; 401 {errorMessages} for bad basic auth,
 * 429 with Retry-After for queued failures.
 */

export const JIRA_SITE = "http://jira.test";
export const JIRA_EMAIL = "jo@acme.test";
export const JIRA_TOKEN = "ATATT3xFfGF0goodtoken";

type Issue = { id: string; key: string; project: string; summary: string; description: any; labels: string[]; issuetype: string; category: string };
export type JiraFailure = { retryAfter: number } | null;

const PROJECTS = [
  { id: "10000", key: "EXP", name: "Expenses" },
  { id: "10001", key: "OPS", name: "Operations" },
  { id: "10002", key: "WEB", name: "Website" },
];

export function createJiraMock() {
  const issues: Issue[] = [];
  const calls: { method: string; path: string; body: any }[] = [];
  /** Answers for the next issue writes (POST or PUT), in order; null lets that write through. */
  const failures: JiraFailure[] = [];
  const goodAuth = `Basic ${Buffer.from(`${JIRA_EMAIL}:${JIRA_TOKEN}`).toString("base64")}`;
  const refuse = () => HttpResponse.json({ errorMessages: ["Client must be authenticated to access this resource."], errors: {} }, { status: 401 });
  const guard = (request: Request) => (request.headers.get("authorization") === goodAuth ? null : refuse());
  const fail = () => {
    const f = failures.shift();
    return f ? HttpResponse.json({ errorMessages: ["Rate limit exceeded."] }, { status: 429, headers: { "Retry-After": String(f.retryAfter) } }) : null;
  };
  const shape = (i: Issue) => ({
    id: i.id,
    key: i.key,
    self: `${JIRA_SITE}/rest/api/3/issue/${i.id}`,
    fields: { summary: i.summary, labels: i.labels, status: { name: "To Do", statusCategory: { id: 2, key: i.category, name: i.category } } },
  });
  const find = (key: string) => issues.find((i) => i.key === key || i.id === key);
  const handlers = [
    http.get(
      `${JIRA_SITE}/rest/api/3/myself`,
      ({ request }) =>
        guard(request) ?? HttpResponse.json({ accountId: "5b10a2844c20165700ede21g", displayName: "Jo Jira", emailAddress: JIRA_EMAIL, active: true }),
    ),
    http.get(`${JIRA_SITE}/rest/api/3/project/search`, ({ request }) => {
      const refused = guard(request);
      if (refused) return refused;
      const url = new URL(request.url);
      const startAt = Number(url.searchParams.get("startAt") ?? 0);
      const values = PROJECTS.slice(startAt, startAt + 2);
      calls.push({ method: "GET", path: `/project/search?startAt=${startAt}`, body: null });
      return HttpResponse.json({ startAt, maxResults: 2, total: PROJECTS.length, isLast: startAt + 2 >= PROJECTS.length, values });
    }),
    http.post(`${JIRA_SITE}/rest/api/3/issue`, async ({ request }) => {
      const refused = guard(request);
      if (refused) return refused;
      const body = (await request.json()) as { fields: any };
      calls.push({ method: "POST", path: "/issue", body });
      const failed = fail();
      if (failed) return failed;
      const project = body.fields.project?.key as string;
      if (!PROJECTS.some((p) => p.key === project))
        return HttpResponse.json({ errorMessages: [], errors: { project: "valid project is required" } }, { status: 400 });
      const n = issues.filter((i) => i.project === project).length + 1;
      const issue: Issue = {
        id: String(10100 + issues.length),
        key: `${project}-${n}`,
        project,
        summary: body.fields.summary,
        description: body.fields.description,
        labels: body.fields.labels ?? [],
        issuetype: body.fields.issuetype?.name,
        category: "new",
      };
      issues.push(issue);
      return HttpResponse.json({ id: issue.id, key: issue.key, self: `${JIRA_SITE}/rest/api/3/issue/${issue.id}` }, { status: 201 });
    }),
    http.put(`${JIRA_SITE}/rest/api/3/issue/:key`, async ({ request, params }) => {
      const refused = guard(request);
      if (refused) return refused;
      const body = (await request.json()) as { fields: any };
      calls.push({ method: "PUT", path: `/issue/${params.key}`, body });
      const failed = fail();
      if (failed) return failed;
      const issue = find(String(params.key));
      if (!issue) return HttpResponse.json({ errorMessages: ["Issue does not exist or you do not have permission to see it."] }, { status: 404 });
      Object.assign(issue, {
        summary: body.fields.summary ?? issue.summary,
        description: body.fields.description ?? issue.description,
        labels: body.fields.labels ?? issue.labels,
      });
      return new HttpResponse(null, { status: 204 });
    }),
    http.get(`${JIRA_SITE}/rest/api/3/issue/:key`, ({ request, params }) => {
      const refused = guard(request);
      if (refused) return refused;
      const issue = find(String(params.key));
      return issue
        ? HttpResponse.json(shape(issue))
        : HttpResponse.json({ errorMessages: ["Issue does not exist or you do not have permission to see it."] }, { status: 404 });
    }),
  ];
  return { handlers, issues, calls, failures };
}
