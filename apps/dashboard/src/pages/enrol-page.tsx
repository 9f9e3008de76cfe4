import { Link } from 'react-router';
import { Page } from '../components/page';
import { PasskeyEnrolment } from '../factors/passkey-enrolment';
import { TotpEnrolment } from '../factors/totp-enrolment';
import { useSessionQuery, useSetSession } from '../session/use-session';

/** A member's first second factor: a passkey, an authenticator app, or both. */
export function EnrolPage() {
  const { data: session } = useSessionQuery();
  const setSession = useSetSession();
  const active = session?.stage === 'active';
  return (
    <Page title="Add a second factor">
      <p>Every sign-in asks for a second factor. Add a passkey (recommended), an authenticator app, or both.</p>
      <section aria-labelledby="enrol-passkey" className="card">
        <h2 id="enrol-passkey">Passkey</h2>
        <PasskeyEnrolment onRegistered={setSession} />
      </section>
      <section aria-labelledby="enrol-totp" className="card">
        <h2 id="enrol-totp">Authenticator app</h2>
        <TotpEnrolment onConfirmed={setSession} />
      </section>
      {active ? (
        <p>
          <Link className="button" to="/">
            Continue to the dashboard
          </Link>
        </p>
      ) : null}
    </Page>
  );
}
