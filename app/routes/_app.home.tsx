import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { ADMIN_ROLES, hasRole } from "~/domain/actor";
import { apiKeyQuota } from "~/domain/api-keys/api-keys.server";
import { listProjectsSchema } from "~/domain/projects/projects.schema";
import { listProjects } from "~/domain/projects/projects.server";
import { requireUiActor } from "~/http/ui.server";

export const meta: MetaFunction = () => [{ title: "Home · PRD Studio" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const actor = await requireUiActor(request, context);
  const welcome = new URL(request.url).searchParams.has("welcome");
  const isAdmin = hasRole(actor, ADMIN_ROLES);
  const [projects, keys] = await Promise.all([
    listProjects(actor, listProjectsSchema.parse({ limit: 1 })),
    isAdmin ? apiKeyQuota(actor) : null,
  ]);
  return {
    name: actor.user.name,
    emailVerified: actor.user.emailVerified,
    isAdmin,
    welcome,
    hasProject: projects.total > 0,
    hasKey: (keys?.used ?? 0) > 0,
  };
}

export default function Home() {
  const { name, emailVerified, isAdmin, welcome, hasProject, hasKey } = useLoaderData<typeof loader>();
  const steps = [
    { done: true, title: "Create your account", text: "You are in." },
    {
      done: hasProject,
      title: "Start a project",
      text: "A project holds one PRD with its versions, comments, files and reviews.",
      link: { to: "/projects/new", label: "New project" },
    },
    {
      done: emailVerified,
      title: "Confirm your e-mail",
      text: emailVerified ? "Confirmed." : "We sent you a link. Not there? Resend it from Settings → Account.",
      link: emailVerified ? undefined : { to: "/settings", label: "Resend link" },
    },
    {
      done: hasKey,
      title: "Connect your tools",
      text: isAdmin
        ? "Create an API key to script PRD Studio from CI, notebooks or your own apps."
        : "Ask an admin of your workspace for an API key to use the API.",
      link: isAdmin ? { to: "/settings/api-keys", label: "Manage API keys" } : undefined,
    },
  ];
  return (
    <>
      <div className="page-header">
        <div>
          <h1>{welcome ? `Welcome to PRD Studio, ${name.split(" ")[0]}` : `Hello, ${name.split(" ")[0]}`}</h1>
          <p>Your workspace is ready. Here is what to do next.</p>
        </div>
      </div>
      {!emailVerified ? (
        <div className="alert alert-warning" role="status">
          <p>
            Please confirm your e-mail address. <Link to="/settings">Resend the confirmation link</Link>
          </p>
        </div>
      ) : null}
      <section className="card" aria-labelledby="getting-started">
        <h2 id="getting-started">Getting started</h2>
        <ul className="checklist">
          {steps.map((s) => (
            <li key={s.title} className={s.done ? "done" : undefined}>
              <span className="dot" aria-hidden="true">
                {s.done ? "✓" : ""}
              </span>
              <div>
                <strong>{s.title}</strong>
                <span className="sr-only">{s.done ? " (done)" : " (to do)"}</span>
                <div className="muted">
                  {s.text} {s.link ? <Link to={s.link.to}>{s.link.label}</Link> : null}
                </div>
              </div>
            </li>
          ))}
        </ul>
      </section>
    </>
  );
}
