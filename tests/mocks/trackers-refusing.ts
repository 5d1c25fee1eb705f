import { graphql, http, HttpResponse } from "msw";

/**
 * The issue trackers at their real addresses, refusing every token as each
 * service refuses a bad one, for suites that do not test trackers but may
 * reach them (the contract fuzz connects trackers with generated tokens):
 * GitHub's 401 "Bad credentials", Linear's GraphQL AUTHENTICATION_ERROR, Jira
 * Cloud's 401. The tracker tests use the full stand-ins (github.ts, linear.ts).
 */
export const refusingTrackerHandlers = [
  http.all("https://api.github.com/*", () =>
    HttpResponse.json({ message: "Bad credentials", documentation_url: "https://docs.github.com/rest", status: "401" }, { status: 401 }),
  ),
  graphql.link("https://api.linear.app/graphql").operation(() =>
    HttpResponse.json(
      {
        errors: [
          {
            message: "Authentication required, not authenticated",
            extensions: {
              type: "authentication error",
              code: "AUTHENTICATION_ERROR",
              userPresentableMessage: "You need to authenticate to access this operation.",
            },
          },
        ],
      },
      { status: 400 },
    ),
  ),
  http.all("https://*.atlassian.net/*", () =>
    HttpResponse.json({ errorMessages: ["Client must be authenticated to access this resource."], errors: {} }, { status: 401 }),
  ),
];
