import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useApi } from '../api/api-context';
import { ErrorAlert } from '../components/error-alert';
import type { Session } from '../session/session-types';

/** Sets up an authenticator app: a new secret shown as text, then a code from it to confirm. */
export function TotpEnrolment({ onConfirmed }: { onConfirmed: (session: Session) => void }) {
  const { client, call } = useApi();
  const codeId = useId();
  const secretId = useId();
  const urlId = useId();
  const [code, setCode] = useState('');

  const start = useMutation({ mutationFn: () => call(() => client.POST('/factors/totp')) });
  const confirm = useMutation({
    mutationFn: () => call(() => client.POST('/factors/totp/confirm', { body: { code } })),
    onSuccess: onConfirmed,
  });

  if (confirm.isSuccess) return <p role="status">Your authenticator app is set up.</p>;

  return (
    <div>
      <button type="button" className="button" onClick={() => start.mutate()} disabled={start.isPending}>
        Set up an authenticator app
      </button>
      <ErrorAlert error={start.error} />
      {start.data ? (
        <form
          className="totp-setup"
          onSubmit={(event) => {
            event.preventDefault();
            confirm.mutate();
          }}
        >
          <p>Add this secret to your authenticator app, then type the code it shows.</p>
          <div className="field">
            <label htmlFor={secretId}>Secret key (base32)</label>
            <input id={secretId} className="secret" readOnly value={start.data.secret} />
          </div>
          <div className="field">
            <label htmlFor={urlId}>Setup URL (otpauth)</label>
            <input id={urlId} className="secret" readOnly value={start.data.otpauthUrl} />
          </div>
          <div className="field">
            <label htmlFor={codeId}>Code from the app</label>
            <input
              id={codeId}
              inputMode="numeric"
              autoComplete="one-time-code"
              pattern="[0-9]{6}"
              maxLength={6}
              required
              value={code}
              onChange={(event) => setCode(event.target.value.trim())}
            />
          </div>
          <button type="submit" className="button" disabled={confirm.isPending}>
            Confirm code
          </button>
          <ErrorAlert error={confirm.error} />
        </form>
      ) : null}
    </div>
  );
}
