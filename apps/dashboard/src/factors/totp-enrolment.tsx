import { useMutation } from '@tanstack/react-query';
import { useId } from 'react';
import { useApi } from '../api/api-context';
import { ErrorAlert } from '../components/error-alert';
import type { Session } from '../session/session-types';
import { TotpCodeForm } from './totp-code-form';

/** Sets up an authenticator app: a new secret shown as text, then a code from it to confirm. */
export function TotpEnrolment({ onConfirmed }: { onConfirmed: (session: Session) => void }) {
  const { client, call } = useApi();
  const secretId = useId();
  const urlId = useId();

  const start = useMutation({ mutationFn: () => call(() => client.POST('/factors/totp')) });
  const confirm = useMutation({
    mutationFn: (code: string) => call(() => client.POST('/factors/totp/confirm', { body: { code } })),
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
        <TotpCodeForm
          className="totp-setup"
          label="Code from the app"
          submitLabel="Confirm code"
          busy={confirm.isPending}
          error={confirm.error}
          onSubmit={(code) => confirm.mutate(code)}
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
        </TotpCodeForm>
      ) : null}
    </div>
  );
}
