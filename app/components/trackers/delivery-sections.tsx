import type { DeliveryBySection, SectionIssue, SentStory, StateCounts } from "~/domain/trackers/delivery-sections.server";
import { plural } from "~/utils/plural";
import { StateBadge } from "./delivery";

/**
 * Delivery on the PRD (docs/trackers.md, "On the PRD"): a side card listing
 * the PRD's sections that have issues in a tracker, each with "2 of 3 done",
 * a link to its heading and its issues; and, under a saved user-stories
 * output, the stories that were sent with their state. Plain links and
 * details/summary: works without JavaScript and beside the rich editor.
 */

const doneText = (c: StateCounts) => `${c.done} of ${c.total} done`;

function IssueList({ issues }: { issues: SectionIssue[] }) {
  return (
    <ul className="delivery-issues">
      {issues.map((i, n) => (
        <li key={`${i.externalKey}-${n}`}>
          <StateBadge state={i.state} />{" "}
          <a href={i.url} rel="noopener noreferrer">
            {i.externalKey}
          </a>{" "}
          <span>{i.title}</span>
        </li>
      ))}
    </ul>
  );
}

function SectionItem({
  title,
  href,
  counts,
  issues,
  trackerHref,
}: {
  title: string;
  href: string | null;
  counts: StateCounts;
  issues: SectionIssue[];
  trackerHref: string;
}) {
  return (
    <li className="delivery-section" data-testid="delivery-section">
      <div className="delivery-section-head">
        {href ? <a href={href}>{title}</a> : <span>{title}</span>}
        <a className={`badge ${counts.done === counts.total ? "badge-success" : ""}`} href={trackerHref}>
          {doneText(counts)}
          <span className="sr-only"> in {title}: see the tracker page</span>
        </a>
      </div>
      <details>
        <summary>
          {plural(issues.length, "issue")}: {counts.inProgress} in progress, {counts.open} open
        </summary>
        <IssueList issues={issues} />
      </details>
    </li>
  );
}

/** Nothing when no issue of the project is linked. */
export function DeliveryBySectionCard({ delivery, projectId }: { delivery: DeliveryBySection | null; projectId: string }) {
  if (!delivery || (!delivery.sections.length && !delivery.other)) return null;
  const trackerHref = `/projects/${projectId}/tracker`;
  return (
    <section className="card delivery-sections" aria-labelledby="delivery-sections-heading">
      <h2 id="delivery-sections-heading">Delivery by section</h2>
      <ul>
        {delivery.sections.map((s) => (
          <SectionItem key={s.id} title={s.title} href={`#${s.id}`} counts={s.counts} issues={s.issues} trackerHref={trackerHref} />
        ))}
        {delivery.other ? (
          <SectionItem title="Not under a PRD heading" href={null} counts={delivery.other.counts} issues={delivery.other.issues} trackerHref={trackerHref} />
        ) : null}
      </ul>
    </section>
  );
}

/** "Sent: Done · #12" for each story of a saved output that is in a tracker. */
export function SentStoriesList({ stories, outputId }: { stories: SentStory[] | undefined; outputId: string }) {
  if (!stories?.length) return null;
  const headingId = `sent-stories-${outputId}`;
  return (
    <section className="delivery-sent" aria-labelledby={headingId}>
      <h3 id={headingId}>Sent to a tracker</h3>
      <ul>
        {stories.map((s, n) => (
          <li key={`${s.title}-${n}`} data-testid="sent-story">
            <span>{s.title}</span>{" "}
            {s.issues.map((i, n) => (
              <span key={`${i.externalKey}-${n}`} className="delivery-sent-state">
                Sent: <StateBadge state={i.state} /> ·{" "}
                <a href={i.url} rel="noopener noreferrer">
                  {i.externalKey}
                </a>
              </span>
            ))}
          </li>
        ))}
      </ul>
    </section>
  );
}
