import { useMutation, useQuery } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { useApi } from '../api/api-context';
import { unwrap } from '../api/unwrap';
import { DateTime } from '../components/date-time';
import { ErrorAlert } from '../components/error-alert';
import { Page } from '../components/page';
import { useSetSession } from '../session/use-session';

const MIN_PASSWORD_LENGTH = 12;
// The contract's LinkToken pattern: anything else is no link, and is not sent.
const LINK_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * A setup or invitation link, /payment/dashboard/welcome#<token>: the token
 * rides in the fragment, which browsers never send, and reaches the API in a
 * body, never a path, so no request log holds it.
 */
export function WelcomePage() {
  const { hash } = useLocation();
  const token = hash.slice(1);
  const { client } = useApi();
  const link = useQuery({
    queryKey: ['link', token],
    queryFn: () => unwrap(client.POST('/links/lookup', { body: { token } })),
    enabled: LINK_TOKEN.test(token),
    retry: false,
  });

  if (!LINK_TOKEN.test(token)) {
    return (
      <Page title="Welcome">
        <p role="alert" className="alert">
          This link is incomplete. Open the whole link from your email or from the person who invited you.
        </p>
      </Page>
    );
  }
  return (
    <Page title="Welcome">
      {link.isPending ? <p>Checking your link…</p> : null}
      <ErrorAlert error={link.error} />
      {link.data ? (
        <>
          <p>
            {link.data.kind === 'setup' ? 'Set up the dashboard of ' : 'You are invited to join '}
            <strong>{link.data.merchantName}</strong> as <strong>{link.data.role}</strong>, signing in as <strong>{link.data.email}</strong>.
            The link works until <DateTime value={link.data.expiresAt} />.
          </p>
          <PasswordForm token={token} />
        </>
      ) : null}
    </Page>
  );
}

function PasswordForm({ token }: { token: string }) {
  const { client } = useApi();
  const setSession = useSetSession();
  const navigate = useNavigate();
  const passwordId = useId();
  const repeatId = useId();
  const hintId = useId();
  const [password, setPassword] = useState('');
  const [repeat, setRepeat] = useState('');
  const [mismatch, setMismatch] = useState(false);
  const accept = useMutation({
    mutationFn: () => unwrap(client.POST('/links/accept', { body: { token, password } })),
    onSuccess: (session) => {
      setSession(session);
      navigate('/enrol', { replace: true });
    },
  });

  return (
    <form
      className="narrow"
      onSubmit={(event) => {
        event.preventDefault();
        setMismatch(password !== repeat);
        if (password === repeat) accept.mutate();
      }}
    >
      <div className="field">
        <label htmlFor={passwordId}>New password</label>
        <input
          id={passwordId}
          type="password"
          autoComplete="new-password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          maxLength={1024}
          aria-describedby={hintId}
          value={password}
          onChange={(event) => setPassword(event.target.value)}
        />
        <p id={hintId} className="hint">
          At least {MIN_PASSWORD_LENGTH} characters.
        </p>
      </div>
      <div className="field">
        <label htmlFor={repeatId}>Repeat the password</label>
        <input
          id={repeatId}
          type="password"
          autoComplete="new-password"
          required
          minLength={MIN_PASSWORD_LENGTH}
          maxLength={1024}
          value={repeat}
          onChange={(event) => setRepeat(event.target.value)}
        />
      </div>
      {mismatch ? (
        <p role="alert" className="alert">
          The two passwords differ. Type the same password twice.
        </p>
      ) : null}
      <button type="submit" className="button" disabled={accept.isPending}>
        Set password
      </button>
      <ErrorAlert error={accept.error} />
    </form>
  );
}
