import { Form } from "@remix-run/react";
import { type FormState, FormAlert } from "~/components/forms";
import { plural } from "~/utils/plural";
import { STATE_BADGE } from "./delivery";

/**
 * "Refresh states from the trackers" in the Linked issues section of the
 * Send to tracker page (docs/trackers.md, "Without webhooks: refresh"): a
 * plain form (intent=refresh), when the states were last checked, and a
 * refused refresh's reason beside the button.
 */

type Summary = {
  refreshed: number;
  changed: number;
  failed: number;
  skipped: number;
  remaining: number;
  results: { externalKey: string; state: keyof typeof STATE_BADGE; changed: boolean; error: string | null }[];
};

/** "Refreshed 3 issues: 1 changed (ABC-7 is now Done)." and what was not refreshed, in plain words. */
export function refreshNotice(r: Summary): { message: string; tone: "success" | "error" } {
  const changed = r.results.filter((x) => x.changed);
  const shown = changed
    .slice(0, 3)
    .map((x) => `${x.externalKey} is now ${STATE_BADGE[x.state].label}`)
    .join(", ");
  const more = changed.length > 3 ? `, and ${changed.length - 3} more` : "";
  const parts = [
    r.changed
      ? `Refreshed ${plural(r.refreshed, "issue")}: ${r.changed} changed (${shown}${more}).`
      : `Refreshed ${plural(r.refreshed, "issue")}: no state changed.`,
  ];
  const failure = r.results.find((x) => x.error);
  if (failure) parts.push(`${r.failed} not refreshed: ${failure.error!.replace(/^Not refreshed: /, "")}.`);
  if (r.skipped) parts.push(`${plural(r.skipped, "issue")} skipped: its tracker was disconnected.`);
  if (r.remaining) parts.push(`${r.remaining} more to check: refresh again.`);
  return { message: parts.join(" "), tone: failure ? "error" : "success" };
}

export function RefreshStates({ lastChecked, failure }: { lastChecked: { iso: string; label: string } | null; failure: FormState | null }) {
  return (
    <Form method="post" className="tracker-refresh">
      <input type="hidden" name="intent" value="refresh" />
      <button type="submit" className="btn btn-secondary" aria-describedby="tracker-refresh-note">
        Refresh states from the trackers
      </button>
      <p id="tracker-refresh-note" className="muted">
        {lastChecked ? (
          <>
            Last checked <time dateTime={lastChecked.iso}>{lastChecked.label}</time>
          </>
        ) : (
          "Not checked yet"
        )}
      </p>
      <FormAlert state={failure} />
    </Form>
  );
}
