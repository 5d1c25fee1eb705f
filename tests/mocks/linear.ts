import { graphql, http, HttpResponse } from "msw";

/**
 * A Linear GraphQL stand-in at LINEAR_API_URL, answering the operations the
 * adapter sends (Viewer, Teams, TeamLabels, IssueCreate, IssueUpdate, Issue) in
 * Linear's response shapes, and Linear's failures: 400 with an
 * AUTHENTICATION_ERROR for a bad API key, 400 RATELIMITED with
 * X-RateLimit-Requests-Reset (epoch ms) for a rate limit.
 */

export const LINEAR_API_URL = "https://linear.test/graphql";
export const LINEAR_KEY = "lin_api_goodkey0000000000000000000000000000";
export const TEAM_ID = "9cfb482a-81e3-4154-b5b9-2c805e70a02d";

type Issue = { id: string; number: number; identifier: string; title: string; description: string; labelIds: string[]; stateType: string; teamId: string };
/** Error answers go out as GraphQL responses (msw types those handlers by their data). */
type Reply = HttpResponse<any>;
export type LinearFailure = { rateLimitResetMs: number } | null;

const LABELS = [
  { id: "label-story", name: "User story" },
  { id: "label-must", name: "priority: must" },
  { id: "label-bug", name: "Bug" },
];

/** `acceptsBearer`: OAuth access tokens Linear takes as "Bearer <t>" (the OAuth suite's); the API key is always taken as it is. */
export function createLinearMock(options: { acceptsBearer?: (token: string) => boolean } = {}) {
  const issues: Issue[] = [];
  const calls: { operation: string; variables: any }[] = [];
  /** Answers for the next issue writes (IssueCreate or IssueUpdate) and reads (Issue), in order; null lets that call through. */
  const failures: LinearFailure[] = [];
  let next = 0;
  const linear = graphql.link(LINEAR_API_URL);
  const authorized = (request: Request) => {
    const header = request.headers.get("authorization") ?? "";
    const bearer = /^Bearer (\S+)$/.exec(header)?.[1];
    return header === LINEAR_KEY || (bearer !== undefined && (options.acceptsBearer?.(bearer) ?? false));
  };
  const refuse = (): Reply =>
    HttpResponse.json(
      {
        errors: [
          {
            message: "Authentication required, not authenticated",
            extensions: {
              type: "authentication error",
              code: "AUTHENTICATION_ERROR",
              statusCode: 401,
              userError: true,
              userPresentableMessage: "Your API key is invalid or expired.",
            },
          },
        ],
      },
      { status: 400 },
    );
  const fail = (): Reply | null => {
    const f = failures.shift();
    if (!f) return null;
    return HttpResponse.json(
      {
        errors: [
          {
            message: "Rate limit exceeded",
            extensions: { type: "ratelimited", code: "RATELIMITED", statusCode: 429, userPresentableMessage: "Too many requests, slow down." },
          },
        ],
      },
      { status: 400, headers: { "X-RateLimit-Requests-Remaining": "0", "X-RateLimit-Requests-Reset": String(f.rateLimitResetMs) } },
    );
  };
  const shape = (i: Issue) => ({
    id: i.id,
    number: i.number,
    identifier: i.identifier,
    url: `https://linear.app/acme/issue/${i.identifier}`,
    title: i.title,
    state: { type: i.stateType },
  });
  const handlers = [
    linear.query("Viewer", ({ request }) =>
      authorized(request) ? HttpResponse.json({ data: { viewer: { id: "user-1", name: "Lin Ear", email: "lin@acme.test" } } }) : refuse(),
    ),
    linear.query("Teams", ({ request }) =>
      authorized(request)
        ? HttpResponse.json({
            data: {
              teams: {
                nodes: [
                  { id: TEAM_ID, key: "ENG", name: "Engineering" },
                  { id: "team-design", key: "DES", name: "Design" },
                ],
              },
            },
          })
        : refuse(),
    ),
    linear.query("TeamLabels", ({ request, variables }) => {
      if (!authorized(request)) return refuse();
      const known = variables.teamId === TEAM_ID || variables.teamId === "team-design";
      return HttpResponse.json({ data: { team: known ? { labels: { nodes: variables.teamId === TEAM_ID ? LABELS : [] } } : null } });
    }),
    linear.mutation("IssueCreate", ({ request, variables }) => {
      if (!authorized(request)) return refuse();
      calls.push({ operation: "IssueCreate", variables });
      const failed = fail();
      if (failed) return failed;
      const input = variables.input as { teamId: string; title: string; description: string; labelIds?: string[] };
      const number = issues.length + 1;
      const issue: Issue = {
        id: `issue-${++next}`,
        number,
        identifier: `ENG-${number}`,
        title: input.title,
        description: input.description,
        labelIds: input.labelIds ?? [],
        stateType: "unstarted",
        teamId: input.teamId,
      };
      issues.push(issue);
      return HttpResponse.json({ data: { issueCreate: { success: true, issue: shape(issue) } } });
    }),
    linear.mutation("IssueUpdate", ({ request, variables }) => {
      if (!authorized(request)) return refuse();
      calls.push({ operation: "IssueUpdate", variables });
      const failed = fail();
      if (failed) return failed;
      const issue = issues.find((i) => i.id === variables.id);
      if (!issue)
        return HttpResponse.json({
          errors: [{ message: "Entity not found", extensions: { type: "invalid input", userPresentableMessage: "Issue not found" } }],
        });
      const input = variables.input as { title?: string; description?: string; addedLabelIds?: string[] };
      Object.assign(issue, {
        title: input.title ?? issue.title,
        description: input.description ?? issue.description,
        labelIds: [...new Set([...issue.labelIds, ...(input.addedLabelIds ?? [])])],
      });
      return HttpResponse.json({ data: { issueUpdate: { success: true, issue: shape(issue) } } });
    }),
    linear.query("Issue", ({ request, variables }) => {
      if (!authorized(request)) return refuse();
      calls.push({ operation: "Issue", variables });
      const failed = fail();
      if (failed) return failed;
      const issue = issues.find((i) => i.id === variables.id || i.identifier === variables.id);
      if (issue) return HttpResponse.json({ data: { issue: shape(issue) } });
      // What Linear answers for an issue it does not have (deleted, or another workspace's).
      return HttpResponse.json({
        errors: [
          {
            message: "Entity not found: Issue",
            path: ["issue"],
            locations: [{ line: 1, column: 31 }],
            extensions: {
              type: "invalid input",
              code: "INVALID_INPUT",
              statusCode: 400,
              userError: true,
              userPresentableMessage: "Could not find referenced Issue.",
            },
          },
        ],
        data: null,
      });
    }),
    http.post(LINEAR_API_URL, () => HttpResponse.json({ errors: [{ message: "Unknown operation" }] }, { status: 400 })),
  ];
  return { handlers, issues, calls, failures };
}
