import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { Fragment } from "react";
import { FieldNotes } from "~/components/forms";
import { RelativeTime, StatusBadge } from "~/components/project-badges";
import { AppError } from "~/domain/errors";
import { searchComments } from "~/domain/search/comment-search.server";
import { SEARCH_MODES, type SearchMode, searchQuerySchema } from "~/domain/search/search.schema";
import { searchProjects } from "~/domain/search/search-modes.server";
import { type SnippetPart, snippetParts } from "~/domain/search/snippet-text.server";
import { requireUiActor } from "~/http/ui/ui.server";
import searchStyles from "~/styles/search.css?url";
import { plural } from "~/utils/plural";

export const meta: MetaFunction = () => [{ title: "Search · PRD Studio" }];
export const links: LinksFunction = () => [{ rel: "stylesheet", href: searchStyles }];

const MODE_CHOICES: { mode: SearchMode; label: string; hint: string }[] = [
  { mode: "keyword", label: "Keyword", hint: "Finds the words you type (and their other forms) in names, descriptions and PRDs." },
  {
    mode: "semantic",
    label: "Semantic",
    hint: "Finds PRDs about the same thing, even when they use other words. Needs an embedding provider (an OpenAI or Google Gemini key).",
  },
  { mode: "hybrid", label: "Hybrid", hint: "Both at once: word matches and PRDs with a similar meaning, ranked together." },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const params = new URL(request.url).searchParams;
  const q = (params.get("q") ?? "").trim();
  const askedMode = params.get("mode") || "keyword";
  const known = (SEARCH_MODES as readonly string[]).includes(askedMode);
  const mode: SearchMode = known ? (askedMode as SearchMode) : "keyword";
  const modeError = known ? null : "Choose Keyword, Semantic or Hybrid. Keyword search was used.";
  const empty = { q, mode, modeError, results: null, total: 0, notice: null, comments: null, commentTotal: 0, problem: null };
  if (!q) return empty;
  try {
    const [found, comments] = await Promise.all([searchProjects(actor, searchQuerySchema.parse({ q, mode, limit: 30 })), searchComments(actor, q)]);
    // Snippets as plain-text parts (Markdown syntax dropped), rendered as text and <mark>: no HTML is set on the page.
    const results = found.results.map(({ snippet, ...r }) => ({ ...r, snippet: snippetParts(snippet) }));
    const commentResults = comments.results.map(({ snippet, ...c }) => ({ ...c, snippet: snippetParts(snippet) }));
    const notice = "notice" in found && found.notice ? found.notice : null;
    return { ...empty, results, total: found.total, notice, comments: commentResults, commentTotal: comments.total };
  } catch (error) {
    if (error instanceof AppError || (error as Error).name === "ZodError") {
      return { ...empty, results: [], comments: [], problem: "Type at least one word (letters or digits) to search." };
    }
    throw error;
  }
}

function Snippet({ parts }: { parts: SnippetPart[] }) {
  return <p className="snippet">{parts.map((part, i) => (part.match ? <mark key={i}>{part.text}</mark> : <Fragment key={i}>{part.text}</Fragment>))}</p>;
}

export default function Search() {
  const { q, mode, modeError, results, total, notice, comments, commentTotal, problem } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const nothing = results !== null && results.length === 0 && (comments?.length ?? 0) === 0;
  return (
    <>
      <div className="page-header">
        <div>
          <h1>Search</h1>
          <p>Find projects by name, description or anything written in their PRD, and comments on them.</p>
        </div>
      </div>
      <Form method="get" role="search" className="card filters search-form">
        <div className="field grow">
          <label htmlFor="search-q">Search projects, PRDs and comments</label>
          {/* biome-ignore lint/a11y/noAutofocus: the search page's one field; the page exists to type in it. */}
          <input id="search-q" name="q" type="search" defaultValue={q} autoFocus maxLength={200} placeholder="e.g. checkout latency" />
        </div>
        <button className="btn" type="submit">
          {navigation.state === "loading" ? "Searching…" : "Search"}
        </button>
        <fieldset className="field search-modes" aria-describedby={modeError ? "search-mode-error" : undefined} aria-invalid={modeError ? true : undefined}>
          <legend>Mode</legend>
          {MODE_CHOICES.map((c) => (
            <label key={c.mode} className="search-mode" htmlFor={`search-mode-${c.mode}`}>
              <input
                type="radio"
                id={`search-mode-${c.mode}`}
                name="mode"
                value={c.mode}
                defaultChecked={mode === c.mode}
                aria-describedby={`search-mode-${c.mode}-hint`}
              />
              <span>
                <strong>{c.label}</strong>{" "}
                <span className="muted" id={`search-mode-${c.mode}-hint`}>
                  {c.hint}
                </span>
              </span>
            </label>
          ))}
          <FieldNotes id="search-mode" error={modeError ?? undefined} />
          <p className="hint">Comments are always matched by their words.</p>
        </fieldset>
      </Form>
      {problem ? (
        <div className="alert alert-info" role="status">
          <p>{problem}</p>
        </div>
      ) : null}
      {notice ? (
        <div className="alert alert-info" role="status" data-testid="search-notice">
          <p>
            {mode === "semantic" ? "Semantic" : "Hybrid"} search is not available right now. {notice}
          </p>
        </div>
      ) : null}
      {results === null || problem ? null : nothing ? (
        <div className="card empty-state">
          <h2>No matches for “{q}”</h2>
          <p>Try fewer or different words. Search looks at project names, descriptions, PRD text and comments.</p>
        </div>
      ) : (
        <>
          <section aria-labelledby="projects-heading" className="stack search-group">
            <h2 id="projects-heading">Projects</h2>
            <p className="muted">{plural(total, "project")}</p>
            {results.map((r) => (
              <article key={r.projectId} className="card search-result">
                <h3>
                  <Link to={`/projects/${r.projectId}`}>{r.name}</Link>
                </h3>
                <div className="meta-row">
                  <StatusBadge status={r.status} />
                  {r.matchedIn.length ? <span>matched in {r.matchedIn.join(", ")}</span> : <span>similar in meaning</span>}
                  <span>
                    updated <RelativeTime iso={r.updatedAt} />
                  </span>
                </div>
                <Snippet parts={r.snippet} />
              </article>
            ))}
          </section>
          <section aria-labelledby="comments-heading" className="stack search-group">
            <h2 id="comments-heading">Comments</h2>
            <p className="muted">
              {plural(commentTotal, "comment")}
              {comments && commentTotal > comments.length ? `, the ${comments.length} newest shown` : ""}
            </p>
            {(comments ?? []).map((c) => (
              <article key={c.commentId} className="card search-result">
                <h3>
                  <Link to={`/projects/${c.projectId}#comment-${c.threadId}`}>
                    {c.isReply ? "Reply" : "Comment"} on {c.projectName}
                  </Link>
                </h3>
                <div className="meta-row">
                  <span>{c.author ?? "A former member"}</span>
                  <span>
                    <RelativeTime iso={c.createdAt} />
                  </span>
                </div>
                <Snippet parts={c.snippet} />
              </article>
            ))}
          </section>
        </>
      )}
    </>
  );
}
