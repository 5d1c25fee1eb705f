import type { LinksFunction, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, NavLink, Outlet, useLoaderData } from "@remix-run/react";
import { AnsweredBy } from "~/components/ai/progress";
import { aiToolPage } from "~/http/ui/ai-ui.server";
import aiRunStyles from "~/styles/ai-runs.css?url";

export const meta: MetaFunction = () => [{ title: "AI tools · PRD Studio" }];
// The AI tool pages below report a failed run beside its button (app/components/ai/run-error.tsx).
export const links: LinksFunction = () => [{ rel: "stylesheet", href: aiRunStyles }];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const { project, prd, answeredBy } = await aiToolPage(request, context, params.projectId!);
  return { projectId: project.id, hasPrd: Boolean(prd?.content.trim()), canEdit: project.permissions.canEdit, answeredBy };
}

export default function AiTools() {
  const { projectId, hasPrd, canEdit, answeredBy } = useLoaderData<typeof loader>();
  const base = `/projects/${projectId}/ai`;
  const tab = ({ isActive }: { isActive: boolean }) => (isActive ? "active" : undefined);
  return (
    <div>
      <nav className="subtabs" aria-label="AI tools">
        <NavLink to={base} end className={tab}>
          Review &amp; score
        </NavLink>
        <NavLink to={`${base}/improve`} className={tab}>
          Improve
        </NavLink>
        <NavLink to={`${base}/documents`} className={tab}>
          Stories &amp; specs
        </NavLink>
        <NavLink to={`${base}/roadmap`} className={tab}>
          Roadmap
        </NavLink>
        <NavLink to={`${base}/diagrams`} className={tab}>
          Diagrams
        </NavLink>
        <NavLink to={`${base}/launch`} className={tab}>
          Launch content
        </NavLink>
      </nav>
      <AnsweredBy {...answeredBy} />
      {!hasPrd ? (
        <div className="card empty-state">
          <h2>No PRD to work with yet</h2>
          <p>The AI tools read the project's PRD. Build it in a conversation or write it first.</p>
          {canEdit ? (
            <Link className="btn" to={`/projects/${projectId}/builder`}>
              Open the AI builder
            </Link>
          ) : null}
        </div>
      ) : (
        <>
          {!canEdit ? <p className="alert alert-info">You can read the results saved here. Running the tools needs edit rights on the project.</p> : null}
          <Outlet />
        </>
      )}
    </div>
  );
}
