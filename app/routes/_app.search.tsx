import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { Fragment } from "react";
import { RelativeTime, StatusBadge } from "~/components/project-badges";
import { AppError } from "~/domain/errors";
import { searchQuerySchema } from "~/domain/search/search.schema";
import { searchProjects } from "~/domain/search/search-modes.server";
import { snippetParts } from "~/domain/search/snippet-text.server";
import { requireUiActor } from "~/http/ui/ui.server";
import { plural } from "~/utils/plural";

export const meta: MetaFunction = () => [{ title: "Search · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const q = (new URL(request.url).searchParams.get("q") ?? "").trim();
  if (!q) return { q, results: null, total: 0, problem: null };
  try {
    const found = await searchProjects(actor, searchQuerySchema.parse({ q, mode: "keyword", limit: 30 }));
    // The snippet as plain-text parts (Markdown syntax dropped), rendered as text and <mark>: no HTML is set on the page.
    const results = found.results.map(({ snippet, ...r }) => ({ ...r, snippet: snippetParts(snippet) }));
    return { q, results, total: found.total, problem: null };
  } catch (error) {
    if (error instanceof AppError || (error as Error).name === "ZodError") {
      return { q, results: [], total: 0, problem: "Type at least one word (letters or digits) to search." };
    }
    throw error;
  }
}

export default function Search() {
  const { q, results, total, problem } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Search</h1>
          <p>Find projects by name, description or anything written in their PRD.</p>
        </div>
      </div>
      <Form method="get" role="search" className="card filters">
        <div className="field grow">
          <label htmlFor="search-q">Search projects and PRDs</label>
          {/* biome-ignore lint/a11y/noAutofocus: the search page's one field; the page exists to type in it. */}
          <input id="search-q" name="q" type="search" defaultValue={q} autoFocus maxLength={200} placeholder="e.g. checkout latency" />
        </div>
        <button className="btn" type="submit">
          {navigation.state === "loading" ? "Searching…" : "Search"}
        </button>
      </Form>
      {problem ? (
        <div className="alert alert-info" role="status">
          <p>{problem}</p>
        </div>
      ) : null}
      {results === null ? null : results.length === 0 ? (
        <div className="card empty-state">
          <h2>No matches for “{q}”</h2>
          <p>Try fewer or different words. Search looks at project names, descriptions and PRD text.</p>
        </div>
      ) : (
        <section aria-label="Results" className="stack">
          <p className="muted">{plural(total, "result")}</p>
          {results.map((r) => (
            <article key={r.projectId} className="card search-result">
              <h2>
                <Link to={`/projects/${r.projectId}`}>{r.name}</Link>
              </h2>
              <div className="meta-row">
                <StatusBadge status={r.status} />
                <span>matched in {r.matchedIn.join(", ")}</span>
                <span>
                  updated <RelativeTime iso={r.updatedAt} />
                </span>
              </div>
              <p className="snippet">
                {r.snippet.map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : <Fragment key={i}>{part.text}</Fragment>))}
              </p>
            </article>
          ))}
        </section>
      )}
    </>
  );
}
