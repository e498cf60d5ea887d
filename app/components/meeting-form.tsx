import { useTranslation } from "react-i18next";
import { Form } from "react-router";
import { FieldErrors } from "~/components/content-fields";
import { Button } from "~/components/ui/button";
import { Field, FormErrors, TextAreaField } from "~/components/ui/field";
import { MEETING_AGENDA_MAX, MEETING_MAX_MINUTES, MEETING_TITLE_MAX } from "~/lib/limits";
import { REGION_CHOICE, zoneChoices, zoneLabel } from "~/lib/time-zone";
import { type FormReply, getFormProps, getInputProps, getTextareaProps, useForm } from "~/lib/use-form";
import { useReplyCleared } from "~/lib/use-reply-cleared";

/**
/** A search field over a long list (zones, members); the meetings module shows it and filters as typed. */
function OptionFilter({ target, label }: { target: string; label: string }) {
  return (
    <input
      type="search"
      hidden
      aria-label={label}
      placeholder={label}
      aria-controls={target}
      data-filter-for={target}
      className="mb-1 h-8 w-full rounded-md border border-slate-300 bg-white px-2 text-sm"
    />
  );
}

export interface MeetingDefaults {
  title?: string;
  agenda?: string;
  timeZone: string;
  startsAt?: string;
  duration?: string;
  emails?: string;
  participants?: string[];
  /** A new meeting's form key: posting it twice schedules once. */
  clientKey?: string;
  /** The version an edit is made on. */
  sequence?: string;
}

/**
 * Scheduling or editing a meeting. Without JavaScript every control is plain (the zone defaults to
 * the member's saved one); with it, a new meeting's zone starts as the browser's.
 */
export function MeetingForm({
  editing,
  defaults,
  invitable,
  lastResult,
}: {
  editing: number | null;
  defaults: MeetingDefaults;
  invitable: { id: number; nick_name: string }[];
  lastResult: FormReply | undefined;
}) {
  const { t } = useTranslation();
  const [form, fields] = useForm({
    id: editing ? `meeting-${editing}` : "meeting",
    lastResult,
    defaultValue: defaults,
  });
  useReplyCleared(form, lastResult);

  // One chosen member comes back as a string, several as a list.
  const chosen = ([] as unknown[]).concat(fields.participants.initialValue ?? []).map(String);
  // Without script the zones of one region at a time (the meetings module lists them all).
  const choices = zoneChoices(String(fields.timeZone.initialValue ?? ""));
  return (
    // With JavaScript the member's own zone comes along (myZone, the meetings module): their times are shown in it.
    <Form method="post" {...getFormProps(form)} data-testid="meeting-form" data-my-zone>
      <input type="hidden" name="intent" value={editing ? "update" : "create"} />
      {editing ? <input type="hidden" name="id" value={editing} /> : null}
      {/* As posted when the form comes back refused: the version the member's edit was made on. */}
      {fields.clientKey.initialValue ? <input type="hidden" name="clientKey" value={String(fields.clientKey.initialValue)} /> : null}
      {fields.sequence.initialValue ? <input type="hidden" name="sequence" value={String(fields.sequence.initialValue)} /> : null}
      <FormErrors errors={form.errors} id={form.errorId} />
      <Field
        label={t("fields.meetingTitle")}
        errors={fields.title.errors}
        maxLength={MEETING_TITLE_MAX}
        {...getInputProps(fields.title, { type: "text" })}
      />
      <TextAreaField
        label={t("fields.meetingAgenda")}
        errors={fields.agenda.errors}
        rows={3}
        maxLength={MEETING_AGENDA_MAX}
        {...getTextareaProps(fields.agenda)}
      />
      <div className="grid gap-x-4 sm:grid-cols-3">
        <Field
          label={t("fields.meetingStart")}
          errors={fields.startsAt.errors}
          {...getInputProps(fields.startsAt, { type: "datetime-local" })}
        />
        <div className="mb-4">
          <label htmlFor={fields.timeZone.id} className="mb-1 block text-sm font-medium text-slate-700">
            {t("fields.meetingTimeZone")}
          </label>
          <OptionFilter target={fields.timeZone.id} label={t("meetings.findZone")} />
          <select
            id={fields.timeZone.id}
            // A new meeting starts in the browser's zone (the meetings module); a refused or edited one keeps its own.
            data-browser-zone={!editing && !lastResult ? "" : undefined}
            data-zones
            name={fields.timeZone.name}
            key={fields.timeZone.key}
            defaultValue={String(fields.timeZone.initialValue ?? "")}
            aria-invalid={fields.timeZone.errors ? true : undefined}
            aria-describedby={`${fields.timeZone.id}-hint`}
            className="h-9 w-full rounded-md border border-slate-300 bg-white px-2 text-sm aria-invalid:border-red-500"
          >
            <option value="">{t("settings.choose")}</option>
            {choices.zones.map((name) => (
              <option key={name} value={name}>
                {zoneLabel(name)}
              </option>
            ))}
            <optgroup label={t("meetings.otherRegions")} data-regions>
              {choices.regions.map((region) => (
                <option key={region} value={`${REGION_CHOICE}${region}`}>
                  {region}…
                </option>
              ))}
            </optgroup>
          </select>
          <p id={`${fields.timeZone.id}-hint`} className="mt-1 text-xs text-slate-500">
            {t("meetings.timeZoneHelp")}
          </p>
          <FieldErrors name="timeZone" errors={fields.timeZone.errors} />
        </div>
        <Field
          label={t("fields.meetingDuration")}
          errors={fields.duration.errors}
          min={1}
          max={MEETING_MAX_MINUTES}
          {...getInputProps(fields.duration, { type: "number" })}
        />
      </div>
      <Field
        label={t("fields.meetingEmails")}
        errors={fields.emails.errors}
        hint={t("meetings.emailsHelp")}
        placeholder="ada@example.org, grace@example.org"
        {...getInputProps(fields.emails, { type: "text" })}
      />
      {/* Checkboxes, not a multi-select: on a phone a multi-select is a chore, and "hold Ctrl" means nothing. */}
      <fieldset className="mb-4" aria-describedby={`${fields.participants.id}-hint`}>
        <legend className="mb-1 block text-sm font-medium text-slate-700">{t("fields.meetingParticipants")}</legend>
        {invitable.length > 6 ? <OptionFilter target={fields.participants.id} label={t("meetings.findMember")} /> : null}
        {invitable.length === 0 ? (
          <p className="text-sm text-slate-500">{t("meetings.noInvitable")}</p>
        ) : (
          <ul
            id={fields.participants.id}
            key={fields.participants.key}
            className="max-h-48 overflow-y-auto rounded-md border border-slate-300 bg-white px-2 py-1 text-sm"
          >
            {invitable.map((member) => (
              <li key={member.id}>
                <label className="flex min-h-8 items-center gap-2">
                  <input
                    type="checkbox"
                    name={fields.participants.name}
                    value={member.id}
                    defaultChecked={chosen.includes(String(member.id))}
                  />
                  {member.nick_name}
                </label>
              </li>
            ))}
          </ul>
        )}
        <p id={`${fields.participants.id}-hint`} className="mt-1 text-xs text-slate-500">
          {t("meetings.participantsHelp")}
        </p>
        <FieldErrors name="participants" errors={fields.participants.errors} />
      </fieldset>
      <Button type="submit">{editing ? t("meetings.save") : t("meetings.create")}</Button>
    </Form>
  );
}
