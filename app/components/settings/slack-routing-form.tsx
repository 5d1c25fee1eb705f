import { Form } from "@remix-run/react";
import { type FormState, FormAlert, FieldNotes, SubmitButton } from "~/components/forms";
import { SLACK_EVENT_KINDS, SLACK_EVENT_LABELS, type SlackEventKind } from "~/domain/slack/slack.schema";

type Choice = { channelId: string; channelName: string } | null;
export interface RoutingView {
  defaultChannel: Choice;
  events: Record<string, Choice>;
}

/** One channel select (works without JavaScript); a chosen channel the app can no longer see stays listed. */
export function ChannelSelect({
  name,
  label,
  channels,
  current,
  emptyLabel,
  state,
}: {
  name: string;
  label: string;
  channels: { id: string; name: string }[];
  current: Choice;
  emptyLabel: string;
  state: FormState | null;
}) {
  const id = `field-${name}`;
  const error = state?.fieldErrors?.[name];
  const value = state?.values?.[name] ?? current?.channelId ?? "";
  const listed = current && !channels.some((c) => c.id === current.channelId) ? [{ id: current.channelId, name: current.channelName }, ...channels] : channels;
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} name={name} defaultValue={value} aria-invalid={error ? true : undefined} aria-describedby={error ? `${id}-error` : undefined}>
        <option value="">{emptyLabel}</option>
        {listed.map((c) => (
          <option key={c.id} value={c.id}>
            #{c.name}
          </option>
        ))}
      </select>
      <FieldNotes id={id} error={error} />
    </div>
  );
}

/** Settings → Slack: the default channel and one optional channel per kind of message. */
export function SlackRoutingForm({ routing, channels, state }: { routing: RoutingView; channels: { id: string; name: string }[]; state: FormState | null }) {
  return (
    <Form method="post" className="form" noValidate>
      <input type="hidden" name="intent" value="routing" />
      <FormAlert state={state} />
      <ChannelSelect
        name="defaultChannelId"
        label="Default channel"
        channels={channels}
        current={routing.defaultChannel}
        emptyLabel="No default (post nothing)"
        state={state}
      />
      <fieldset>
        <legend>Channel per kind of message</legend>
        <p className="hint">Leave “Default channel” to use the default. A project's own channel (set in its settings) wins over these.</p>
        <div className="slack-routing">
          {SLACK_EVENT_KINDS.map((k: SlackEventKind) => (
            <ChannelSelect
              key={k}
              name={`channel_${k}`}
              label={SLACK_EVENT_LABELS[k]}
              channels={channels}
              current={routing.events[k] ?? null}
              emptyLabel="Default channel"
              state={state}
            />
          ))}
        </div>
      </fieldset>
      <div>
        <SubmitButton pendingText="Saving…">Save channels</SubmitButton>
      </div>
    </Form>
  );
}
