import { useId } from 'react';

export interface EndpointDraft {
  url: string;
  events: string;
  description: string;
}

/** The comma-separated events typed, as the list the contract takes. */
export function eventList(events: string): string[] {
  return events
    .split(',')
    .map((event) => event.trim())
    .filter((event) => event.length > 0);
}

/** The fields of an endpoint, shared by the create and edit forms. */
export function EndpointFields({ draft, onChange }: { draft: EndpointDraft; onChange: (draft: EndpointDraft) => void }) {
  const urlId = useId();
  const eventsId = useId();
  const eventsHintId = useId();
  const descriptionId = useId();
  return (
    <>
      <div className="field">
        <label htmlFor={urlId}>Endpoint URL</label>
        <input id={urlId} type="url" required maxLength={2048} placeholder="https://" value={draft.url} onChange={(event) => onChange({ ...draft, url: event.target.value })} />
      </div>
      <div className="field">
        <label htmlFor={eventsId}>Events</label>
        <input
          id={eventsId}
          required
          aria-describedby={eventsHintId}
          value={draft.events}
          onChange={(event) => onChange({ ...draft, events: event.target.value })}
        />
        <p id={eventsHintId} className="hint">
          Event types separated by commas, e.g. payin.successful, payout.failed.
        </p>
      </div>
      <div className="field">
        <label htmlFor={descriptionId}>Description (optional)</label>
        <input id={descriptionId} maxLength={256} value={draft.description} onChange={(event) => onChange({ ...draft, description: event.target.value })} />
      </div>
    </>
  );
}
