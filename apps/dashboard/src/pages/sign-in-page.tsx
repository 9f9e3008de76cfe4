import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useApi } from '../api/api-context';
import { unwrap } from '../api/unwrap';
import { ErrorAlert } from '../components/error-alert';
import { Page } from '../components/page';
import { SecondFactorForm } from '../factors/second-factor-form';
import { useSessionQuery, useSetSession } from '../session/use-session';

/** Email and password, then (stage `second_factor`) a passkey or a TOTP code. */
export function SignInPage() {
  const { data: session } = useSessionQuery();
  const setSession = useSetSession();
  if (session?.stage === 'second_factor') {
    return (
      <Page title="Confirm it's you">
        <p>
          Signed in as <strong>{session.member.email}</strong>. Finish with a passkey or a code from your authenticator app.
        </p>
        <SecondFactorForm factors={session.factors} onGiven={setSession} />
        <StartOver />
      </Page>
    );
  }
  return <PasswordStep />;
}

function PasswordStep() {
  const { client } = useApi();
  const setSession = useSetSession();
  const emailId = useId();
  const passwordId = useId();
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const signIn = useMutation({
    mutationFn: () => unwrap(client.POST('/sign-in', { body: { email, password } })),
    onSuccess: setSession,
  });

  return (
    <Page title="Sign in">
      <form
        className="narrow"
        onSubmit={(event) => {
          event.preventDefault();
          signIn.mutate();
        }}
      >
        <div className="field">
          <label htmlFor={emailId}>Email</label>
          <input id={emailId} type="email" autoComplete="username" required maxLength={254} value={email} onChange={(event) => setEmail(event.target.value)} />
        </div>
        <div className="field">
          <label htmlFor={passwordId}>Password</label>
          <input
            id={passwordId}
            type="password"
            autoComplete="current-password"
            required
            maxLength={1024}
            value={password}
            onChange={(event) => setPassword(event.target.value)}
          />
        </div>
        <button type="submit" className="button" disabled={signIn.isPending}>
          Sign in
        </button>
        <ErrorAlert error={signIn.error} />
      </form>
    </Page>
  );
}

/** Leaves a half-finished sign-in, for another account or another password. */
function StartOver() {
  const { client } = useApi();
  const setSession = useSetSession();
  const signOut = useMutation({
    mutationFn: () => unwrap(client.POST('/sign-out')),
    onSettled: () => setSession(null),
  });
  return (
    <p>
      <button type="button" className="link-button" onClick={() => signOut.mutate()}>
        Sign in as someone else
      </button>
    </p>
  );
}
