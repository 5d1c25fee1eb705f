import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { DateTime, StatusBadge } from "~/components/project-badges";
import type { HomeFeed } from "~/domain/home/home.server";
import { plural, pluralWord } from "~/utils/plural";

/** The cards of the Home page (docs/ui.md, "Home"), fed by `homeFeed`. */

/** One card: a heading with its count, the list, or one sentence and a link when there is nothing. */
function HomeCard({ id, title, count, countLabel, children }: { id: string; title: string; count: number; countLabel: string; children: ReactNode }) {
  return (
    <section className="card home-card" aria-labelledby={id}>
      <h2 id={id}>
        {title}{" "}
        <span className="home-count">
          {count}
          <span className="sr-only"> {countLabel}</span>
        </span>
      </h2>
      {children}
    </section>
  );
}

function Empty({ children, to, action }: { children: ReactNode; to: string; action: string }) {
  return (
    <p className="home-empty">
      {children} <Link to={to}>{action}</Link>
    </p>
  );
}

export function ContinueCard({ items, canCreate }: { items: HomeFeed["continue"]; canCreate: boolean }) {
  return (
    <HomeCard id="home-continue" title="Continue where you left off" count={items.length} countLabel={pluralWord(items.length, "project")}>
      {items.length === 0 ? (
        <Empty to={canCreate ? "/projects/new" : "/projects"} action={canCreate ? "Start a project" : "Browse projects"}>
          Nothing to pick up yet: the projects you change show up here.
        </Empty>
      ) : (
        <ul className="home-list">
          {items.map((item) => (
            <li key={item.project.id}>
              <div className="home-item-head">
                <strong className="home-item-title">{item.project.name}</strong>
                <StatusBadge status={item.project.status} />
              </div>
              <p className="home-item-meta">
                {item.lastChange} · <DateTime iso={item.at} />
              </p>
              <Link to={item.link} className="btn btn-secondary btn-sm">
                {item.linkLabel}
                <span className="sr-only">: {item.project.name}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </HomeCard>
  );
}

export function WaitingCard({ waiting }: { waiting: HomeFeed["waiting"] }) {
  const { approvals, assigned, reviews } = waiting;
  return (
    <HomeCard id="home-waiting" title="Waiting for you" count={waiting.total} countLabel={pluralWord(waiting.total, "item")}>
      {waiting.total === 0 ? (
        <Empty to="/approvals" action="Open approvals">
          Nothing waits for you: no approvals to decide, no project in review assigned to you, no stakeholder review decided lately.
        </Empty>
      ) : null}
      {approvals.total > 0 ? (
        <Group title="Approvals to decide" total={approvals.total} shown={approvals.items.length} all={{ to: "/approvals", noun: "approval request" }}>
          {approvals.items.map((a) => (
            <li key={a.id}>
              <Link to={a.link} className="home-item-title">
                {a.title}
              </Link>
              <p className="home-item-meta">
                Requested by {a.requestedBy ?? "a former member"} · <DateTime iso={a.createdAt} />
              </p>
            </li>
          ))}
        </Group>
      ) : null}
      {assigned.total > 0 ? (
        <Group
          title="Assigned to you, in review"
          total={assigned.total}
          shown={assigned.items.length}
          all={{ to: "/projects?status=IN_REVIEW&assignedToMe=true", noun: "project in review", nouns: "projects in review" }}
        >
          {assigned.items.map((p) => (
            <ProjectItem key={p.id} project={p} />
          ))}
        </Group>
      ) : null}
      {reviews.total > 0 ? (
        <Group title={`Stakeholder reviews decided in the last ${waiting.reviewDays} days`} total={reviews.total} shown={reviews.items.length}>
          {reviews.items.map((r) => (
            <li key={r.id}>
              <div className="home-item-head">
                <Link to={r.link} className="home-item-title">
                  {r.name}
                </Link>
                <span className={`badge ${r.status === "approved" ? "badge-success" : "badge-danger"}`}>
                  {r.status === "approved" ? "Approved" : "Rejected"}
                </span>
              </div>
              <p className="home-item-meta">
                {r.project.name} · by {r.resolvedBy ?? "a stakeholder"} · <DateTime iso={r.resolvedAt} />
              </p>
            </li>
          ))}
        </Group>
      ) : null}
    </HomeCard>
  );
}

function Group({
  title,
  total,
  shown,
  all,
  children,
}: {
  title: string;
  total: number;
  shown: number;
  all?: { to: string; noun: string; nouns?: string };
  children: ReactNode;
}) {
  return (
    <div className="home-group">
      <h3>{`${title} (${total})`}</h3>
      <ul className="home-list">{children}</ul>
      {all && total > shown ? (
        <p className="home-more">
          <Link to={all.to}>{`See all ${plural(total, all.noun, all.nouns)}`}</Link>
        </p>
      ) : null}
    </div>
  );
}

export function MentionsCard({ mentions }: { mentions: HomeFeed["mentions"] }) {
  return (
    <HomeCard id="home-mentions" title="Mentions" count={mentions.unread} countLabel="unread">
      {mentions.items.length === 0 ? (
        <Empty to="/notifications" action="Open notifications">
          No one has mentioned you lately.
        </Empty>
      ) : (
        <>
          <ul className="home-list">
            {mentions.items.map((m) => (
              <li key={m.id} className={m.unread ? "home-unread" : undefined}>
                <div className="home-item-head">
                  <Link to={m.link} className="home-item-title">
                    {m.title}
                  </Link>
                  {m.unread ? <span className="badge badge-brand">New</span> : null}
                </div>
                {m.excerpt ? <p className="home-snippet">{m.excerpt}</p> : null}
                <p className="home-item-meta">
                  <DateTime iso={m.createdAt} />
                </p>
              </li>
            ))}
          </ul>
          <p className="home-more">
            <Link to="/notifications">All notifications</Link>
          </p>
        </>
      )}
    </HomeCard>
  );
}

export function RecentProjectsCard({ recent, canCreate }: { recent: HomeFeed["recent"]; canCreate: boolean }) {
  return (
    <HomeCard id="home-recent" title="Recent projects" count={recent.total} countLabel={pluralWord(recent.total, "project")}>
      {recent.projects.length === 0 ? (
        canCreate ? (
          <Empty to="/projects/new" action="Start a project">
            No projects yet.
          </Empty>
        ) : (
          <Empty to="/projects" action="Browse projects">
            No project has been shared with you yet.
          </Empty>
        )
      ) : (
        <>
          <ul className="home-list">
            {recent.projects.map((p) => (
              <ProjectItem key={p.id} project={p} />
            ))}
          </ul>
          <p className="home-more">
            <Link to="/projects">{`All ${plural(recent.total, "project")}`}</Link>
          </p>
        </>
      )}
    </HomeCard>
  );
}

/** A project in a list: its name (linked), status and when it last changed. */
function ProjectItem({ project }: { project: { name: string; link: string; status: string; updatedAt: string } }) {
  return (
    <li>
      <div className="home-item-head">
        <Link to={project.link} className="home-item-title">
          {project.name}
        </Link>
        <StatusBadge status={project.status} />
      </div>
      <p className="home-item-meta">
        Updated <DateTime iso={project.updatedAt} />
      </p>
    </li>
  );
}
