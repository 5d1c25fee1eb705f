import { useState } from "react";
import { FieldNotes, type FormState } from "./forms";
import { useHydrated } from "remix-utils/use-hydrated";

/**
 * The fields of a scheduled export (create and edit pages). Without
 * JavaScript every field is shown and the server ignores those the chosen
 * type and method do not use; with it, only the relevant ones are shown.
 */

export const TYPE_CHOICES = [
  ["weekly", "Weekly"],
  ["cron", "Custom (cron expression)"],
  ["one_time", "Once"],
  ["on_status_change", "When the project status changes"],
] as const;
export const FORMAT_CHOICES = [
  ["pdf", "PDF"],
  ["docx", "Word (DOCX)"],
  ["html", "HTML"],
  ["markdown", "Markdown"],
] as const;

interface Props {
  state?: FormState | null;
  /** Values of the schedule being edited, or the create form's defaults. */
  defaults: Record<string, string>;
  projects: { id: string; name: string }[];
  /** Offer "All projects": a digest of every project the creator can read (value ""). */
  allowDigest?: boolean;
  statuses: { value: string; label: string }[];
  timezones: string[];
}

export const DIGEST_CHOICE = ["", "All projects (weekly digest)"] as const;

/** The API's second vocabulary, shown as the canonical choice. */
const ALIASES: Record<string, string> = { weekly_digest: "weekly", custom_cron: "cron" };

function useValue(state: FormState | null | undefined, defaults: Record<string, string>) {
  return (name: string) => {
    const v = state?.values?.[name] ?? defaults[name] ?? "";
    return name === "scheduleType" ? (ALIASES[v] ?? v) : v;
  };
}

function errorFor(state: FormState | null | undefined, name: string) {
  const errors = state?.fieldErrors ?? {};
  return errors[name] ?? Object.entries(errors).find(([k]) => k.startsWith(`${name}.`))?.[1];
}

function Select({
  label,
  name,
  choices,
  value,
  state,
  hint,
  onChange,
}: {
  label: string;
  name: string;
  choices: readonly (readonly [string, string])[];
  value: string;
  state?: FormState | null;
  hint?: string;
  onChange?: (value: string) => void;
}) {
  const id = `field-${name}`;
  const error = errorFor(state, name);
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select
        id={id}
        name={name}
        defaultValue={value}
        onChange={onChange ? (e) => onChange(e.target.value) : undefined}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hint ? `${id}-hint` : "", error ? `${id}-error` : ""].join(" ").trim() || undefined}
      >
        {choices.map(([v, l]) => (
          <option key={v} value={v}>
            {l}
          </option>
        ))}
      </select>
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

function Input({
  label,
  name,
  value,
  state,
  hint,
  type = "text",
  list,
  area,
  placeholder,
}: {
  label: string;
  name: string;
  value: string;
  state?: FormState | null;
  hint?: string;
  type?: string;
  list?: string;
  area?: boolean;
  placeholder?: string;
}) {
  const id = `field-${name}`;
  const error = errorFor(state, name);
  const aria = {
    "aria-invalid": error ? true : undefined,
    "aria-describedby": [hint ? `${id}-hint` : "", error ? `${id}-error` : ""].join(" ").trim() || undefined,
  };
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      {area ? (
        <textarea id={id} name={name} rows={3} defaultValue={value} placeholder={placeholder} {...aria} />
      ) : (
        <input id={id} name={name} type={type} defaultValue={value} list={list} placeholder={placeholder} autoComplete="off" {...aria} />
      )}
      <FieldNotes id={id} hint={hint} error={error} />
    </div>
  );
}

export function ScheduledExportFields({ state, defaults, projects, allowDigest, statuses, timezones }: Props) {
  const value = useValue(state, defaults);
  const [type, setType] = useState(value("scheduleType"));
  const [method, setMethod] = useState(value("deliveryMethod"));
  // Before hydration (and without JavaScript) every field shows.
  const hydrated = useHydrated();
  const show = (yes: boolean) => !hydrated || yes;
  const changelogChecked = state?.values ? state.values.includeChangelog === "on" : defaults.includeChangelog === "on";
  return (
    <>
      <Select
        label="Project"
        name="projectId"
        value={value("projectId")}
        state={state}
        choices={[...(allowDigest ? [DIGEST_CHOICE] : []), ...projects.map((p) => [p.id, p.name] as const)]}
        hint={
          allowDigest
            ? "One project: its current PRD at every run. All projects: one zip with the PRD of every project you can read (archived ones left out), listed with their status and changes."
            : "Its current PRD is exported at every run."
        }
      />
      <fieldset className="stack form-group">
        <legend>When</legend>
        <Select label="Schedule" name="scheduleType" value={value("scheduleType")} state={state} choices={TYPE_CHOICES} onChange={setType} />
        {show(type === "weekly" || type === "one_time") ? (
          <Input
            label="Date and time"
            name="scheduledAt"
            type="datetime-local"
            value={value("scheduledAt")}
            state={state}
            hint="In the timezone below. Once: when it runs. Weekly: the first delivery, then every week on that weekday and time (empty: Mondays 09:00)."
          />
        ) : null}
        {show(type === "cron") ? (
          <Input
            label="Cron expression"
            name="cronExpression"
            value={value("cronExpression")}
            state={state}
            placeholder="0 9 * * 1-5"
            hint="Custom schedules only. Five fields: minute hour day-of-month month day-of-week; at most every 15 minutes."
          />
        ) : null}
        {show(type === "on_status_change") ? (
          <Select
            label="Project status that sends it"
            name="triggerStatus"
            value={value("triggerStatus")}
            state={state}
            choices={[["", "Choose a status"] as const, ...statuses.map((s) => [s.value, s.label] as const)]}
            hint="Status-change schedules only: sent each time the project moves to this status."
          />
        ) : null}
        <Input
          label="Timezone"
          name="timezone"
          value={value("timezone")}
          state={state}
          list="timezones"
          hint="An IANA name such as Europe/Berlin; 09:00 stays 09:00 when clocks change."
        />
        <datalist id="timezones">
          {timezones.map((tz) => (
            <option key={tz} value={tz} />
          ))}
        </datalist>
      </fieldset>
      <fieldset className="stack form-group">
        <legend>What and where</legend>
        <Select label="Format" name="format" value={value("format")} state={state} choices={FORMAT_CHOICES} />
        <Select
          label="Delivery"
          name="deliveryMethod"
          value={value("deliveryMethod")}
          state={state}
          choices={[
            ["email", "E-mail, with the file attached"],
            ["webhook", "Webhook (signed POST)"],
          ]}
          onChange={setMethod}
        />
        {show(method === "email") ? (
          <>
            <Input
              label="Recipients"
              name="recipients"
              area
              value={value("recipients")}
              state={state}
              hint="E-mail only. Up to 20 addresses, separated by commas or new lines."
            />
            <Input
              label="Subject (optional)"
              name="customSubject"
              value={value("customSubject")}
              state={state}
              hint="Default: “Scheduled export: <project name>”, or “Weekly PRD digest: <organization>” for all projects."
            />
          </>
        ) : null}
        {show(method === "webhook") ? (
          <Input
            label="Webhook URL"
            name="webhookUrl"
            type="url"
            value={value("webhookUrl")}
            state={state}
            placeholder="https://example.com/hooks/prd"
            hint="Webhook only. Receives JSON with the file (base64), signed with a secret shown once."
          />
        ) : null}
        <Input
          label="Message (optional)"
          name="customMessage"
          area
          value={value("customMessage")}
          state={state}
          hint="The body of the e-mail, or `message` in the webhook payload."
        />
        <div className="field">
          <label className="checkbox">
            <input type="checkbox" name="includeChangelog" value="on" defaultChecked={changelogChecked} aria-describedby="field-includeChangelog-hint" />{" "}
            Include a summary of the changes since the last delivery
          </label>
          <FieldNotes id="field-includeChangelog" hint="Sections added, removed and changed, with line counts." />
        </div>
      </fieldset>
    </>
  );
}
