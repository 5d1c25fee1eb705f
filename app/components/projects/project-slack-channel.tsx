import { Form } from "@remix-run/react";
import { type FormState, FormAlert, SubmitButton } from "~/components/forms";
import { ChannelSelect } from "~/components/settings/slack-routing-form";

export interface ProjectSlackView {
  teamName: string;
  canManage: boolean;
  current: { channelId: string; channelName: string } | null;
  channels: { id: string; name: string }[];
  error: string | null;
}

/** Project settings → Slack channel: this project's messages go here instead of the organization's channels (owners and admins choose). */
export function ProjectSlackChannel({ slack, state, saved }: { slack: ProjectSlackView; state: FormState | null; saved: boolean }) {
  return (
    <section className="card slack-project-channel" aria-labelledby="slack-heading">
      <h2 id="slack-heading">Slack channel</h2>
      <p className="muted">
        Messages about this project (reviews, approvals, mentions, status changes) go to this channel of {slack.teamName} instead of the organization's
        channels.
      </p>
      {saved ? (
        <div className="alert alert-success" role="status">
          <p>Slack channel saved.</p>
        </div>
      ) : null}
      {slack.error ? (
        <div className="alert alert-error" role="alert">
          <p>Could not list the channels: {slack.error}</p>
        </div>
      ) : null}
      {slack.canManage ? (
        <Form method="post" className="form" noValidate>
          <input type="hidden" name="intent" value="slackChannel" />
          <FormAlert state={state} />
          <ChannelSelect
            name="channelId"
            label="Slack channel"
            channels={slack.channels}
            current={slack.current}
            emptyLabel="The organization's channels"
            state={state}
          />
          <div>
            <SubmitButton pendingText="Saving…">Save Slack channel</SubmitButton>
          </div>
        </Form>
      ) : (
        <p data-testid="project-slack-channel">
          {slack.current ? `Posts to #${slack.current.channelName}.` : "Uses the organization's channels."} Owners and admins can change it.
        </p>
      )}
    </section>
  );
}
