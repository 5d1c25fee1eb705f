import { http, HttpResponse } from "msw";

/**
 * A Jira Cloud REST v3 stand-in at JIRA_SITE (allowed in tests through
 * JIRA_ALLOWED_HOSTS), or at another `base` (Atlassian's API gateway,
 * {api}/ex/jira/{cloudId}, for OAuth): /myself, paginated /project/search
 * ({values, isLast}), the issue types of a project
 * (/issue/createmeta/{key}/issuetypes: EXP has Story, OPS only Task, WEB
 * neither), POST /issue → 201 {id, key, self} (400 for a type the project does
 * not have), PUT /issue/{key} → 204, GET /issue/{key} with
 * fields.status.statusCategory; 401 {errorMessages} for bad auth, 429 with
 * Retry-After for queued failures.
 */

export const JIRA_SITE = "http://jira.test";
export const JIRA_EMAIL = "jo@acme.test";
export const JIRA_TOKEN = "ATATT3xFfGF0goodtoken";

type Issue = { id: string; key: string; project: string; summary: string; description: any; labels: string[]; issuetype: string; category: string };
export type JiraFailure = { retryAfter: number } | null;

type IssueType = { id: string; name: string; subtask: boolean; hierarchyLevel: number };
const type = (id: string, name: string, subtask = false, hierarchyLevel = subtask ? -1 : 0): IssueType => ({ id, name, subtask, hierarchyLevel });

/** Issue types as Jira's project templates have them: Scrum (Epic, Story, Task, Bug, Subtask), business (Task, Subtask), a bug tracker. */
const PROJECTS: { id: string; key: string; name: string; issueTypes: IssueType[] }[] = [
  {
    id: "10000",
    key: "EXP",
    name: "Expenses",
    issueTypes: [type("10000", "Epic", false, 1), type("10001", "Story"), type("10002", "Task"), type("10003", "Bug"), type("10004", "Subtask", true)],
  },
  { id: "10001", key: "OPS", name: "Operations", issueTypes: [type("10004", "Subtask", true), type("10002", "Task")] },
  { id: "10002", key: "WEB", name: "Website", issueTypes: [type("10004", "Subtask", true), type("10003", "Bug"), type("10005", "Improvement")] },
];

/** `base`: where the REST API lives (default JIRA_SITE); `authorized`: which requests are signed in (default: basic auth with JIRA_EMAIL and JIRA_TOKEN). */
export function createJiraMock(options: { base?: string; authorized?: (request: Request) => boolean } = {}) {
  const base = options.base ?? JIRA_SITE;
  const issues: Issue[] = [];
  const calls: { method: string; path: string; body: any }[] = [];
  /** Answers for the next issue writes (POST or PUT), in order; null lets that write through. */
  const failures: JiraFailure[] = [];
  const goodAuth = `Basic ${Buffer.from(`${JIRA_EMAIL}:${JIRA_TOKEN}`).toString("base64")}`;
  const refuse = () => HttpResponse.json({ errorMessages: ["Client must be authenticated to access this resource."], errors: {} }, { status: 401 });
  const authorized = options.authorized ?? ((request: Request) => request.headers.get("authorization") === goodAuth);
  const guard = (request: Request) => (authorized(request) ? null : refuse());
  const fail = () => {
    const f = failures.shift();
    return f ? HttpResponse.json({ errorMessages: ["Rate limit exceeded."] }, { status: 429, headers: { "Retry-After": String(f.retryAfter) } }) : null;
  };
  const shape = (i: Issue) => ({
    id: i.id,
    key: i.key,
    self: `${base}/rest/api/3/issue/${i.id}`,
    fields: { summary: i.summary, labels: i.labels, status: { name: "To Do", statusCategory: { id: 2, key: i.category, name: i.category } } },
  });
  const find = (key: string) => issues.find((i) => i.key === key || i.id === key);
  const handlers = [
    http.get(
      `${base}/rest/api/3/myself`,
      ({ request }) =>
        guard(request) ?? HttpResponse.json({ accountId: "5b10a2844c20165700ede21g", displayName: "Jo Jira", emailAddress: JIRA_EMAIL, active: true }),
    ),
    http.get(`${base}/rest/api/3/project/search`, ({ request }) => {
      const refused = guard(request);
      if (refused) return refused;
      const url = new URL(request.url);
      const startAt = Number(url.searchParams.get("startAt") ?? 0);
      const values = PROJECTS.slice(startAt, startAt + 2).map(({ issueTypes: _types, ...p }) => p);
      calls.push({ method: "GET", path: `/project/search?startAt=${startAt}`, body: null });
      return HttpResponse.json({ startAt, maxResults: 2, total: PROJECTS.length, isLast: startAt + 2 >= PROJECTS.length, values });
    }),
    http.get(`${base}/rest/api/3/issue/createmeta/:key/issuetypes`, ({ request, params }) => {
      const refused = guard(request);
      if (refused) return refused;
      calls.push({ method: "GET", path: `/issue/createmeta/${params.key}/issuetypes`, body: null });
      const project = PROJECTS.find((p) => p.key === params.key || p.id === params.key);
      if (!project) return HttpResponse.json({ errorMessages: [`No project could be found with key '${params.key}'.`], errors: {} }, { status: 404 });
      const issueTypes = project.issueTypes.map((t) => ({
        self: `${base}/rest/api/3/issuetype/${t.id}`,
        id: t.id,
        description: `${t.name} issue type`,
        iconUrl: `${base}/images/icons/issuetypes/${t.name.toLowerCase()}.svg`,
        name: t.name,
        untranslatedName: t.name,
        subtask: t.subtask,
        hierarchyLevel: t.hierarchyLevel,
      }));
      return HttpResponse.json({ maxResults: 50, startAt: 0, total: issueTypes.length, issueTypes });
    }),
    http.post(`${base}/rest/api/3/issue`, async ({ request }) => {
      const refused = guard(request);
      if (refused) return refused;
      const body = (await request.json()) as { fields: any };
      calls.push({ method: "POST", path: "/issue", body });
      const failed = fail();
      if (failed) return failed;
      const project = body.fields.project?.key as string;
      const found = PROJECTS.find((p) => p.key === project);
      if (!found) return HttpResponse.json({ errorMessages: [], errors: { project: "valid project is required" } }, { status: 400 });
      const asked = body.fields.issuetype ?? {};
      const issuetype = found.issueTypes.find((t) => !t.subtask && (t.id === asked.id || t.name === asked.name));
      if (!issuetype) return HttpResponse.json({ errorMessages: [], errors: { issuetype: "Specify a valid issue type" } }, { status: 400 });
      const n = issues.filter((i) => i.project === project).length + 1;
      const issue: Issue = {
        id: String(10100 + issues.length),
        key: `${project}-${n}`,
        project,
        summary: body.fields.summary,
        description: body.fields.description,
        labels: body.fields.labels ?? [],
        issuetype: issuetype.name,
        category: "new",
      };
      issues.push(issue);
      return HttpResponse.json({ id: issue.id, key: issue.key, self: `${base}/rest/api/3/issue/${issue.id}` }, { status: 201 });
    }),
    http.put(`${base}/rest/api/3/issue/:key`, async ({ request, params }) => {
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
    http.get(`${base}/rest/api/3/issue/:key`, ({ request, params }) => {
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
