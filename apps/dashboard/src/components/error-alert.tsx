import { messageOf } from '../api/api-error';

/** The service's message for a failed call, announced to screen readers as it appears. */
export function ErrorAlert({ error }: { error: unknown }) {
  if (error === null || error === undefined) return null;
  return (
    <p role="alert" className="alert">
      {messageOf(error)}
    </p>
  );
}
