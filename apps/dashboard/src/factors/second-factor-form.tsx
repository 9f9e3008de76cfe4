import { useMutation } from '@tanstack/react-query';
import { useApi } from '../api/api-context';
import { unwrap } from '../api/unwrap';
import { ErrorAlert } from '../components/error-alert';
import type { Session } from '../session/session-types';
import { assertWithPasskey } from './passkey';
import { TotpCodeForm } from './totp-code-form';

interface SecondFactorFormProps {
  factors: Session['factors'];
  /** Called with the session the service answered, active with a fresh factor. */
  onGiven: (session: Session) => void;
}

/**
 * A passkey or a TOTP code, given to finish signing in or, on an active
 * session, as a fresh factor: the same two endpoints serve both.
 * Calls go out unwrapped, never through the step-up handling they are part of.
 */
export function SecondFactorForm({ factors, onGiven }: SecondFactorFormProps) {
  const { client } = useApi();

  const passkey = useMutation({
    mutationFn: async () => {
      const options = await unwrap(client.POST('/sign-in/passkey/options'));
      const response = await assertWithPasskey(options);
      return unwrap(client.POST('/sign-in/passkey', { body: { response } }));
    },
    onSuccess: onGiven,
  });
  const totp = useMutation({
    mutationFn: (code: string) => unwrap(client.POST('/sign-in/totp', { body: { code } })),
    onSuccess: onGiven,
  });

  return (
    <div className="second-factor">
      {factors.passkeys > 0 ? (
        <div className="factor-choice">
          <button type="button" className="button" onClick={() => passkey.mutate()} disabled={passkey.isPending}>
            Use a passkey
          </button>
          <ErrorAlert error={passkey.error} />
        </div>
      ) : null}
      {factors.totp ? (
        <TotpCodeForm
          className="factor-choice"
          label="Authentication code"
          hint="The 6-digit code your authenticator app shows."
          submitLabel="Verify code"
          busy={totp.isPending}
          error={totp.error}
          onSubmit={(code) => totp.mutate(code)}
        />
      ) : null}
    </div>
  );
}
