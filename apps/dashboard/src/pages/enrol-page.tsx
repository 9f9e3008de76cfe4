import { Link } from 'react-router';
import { CardSection } from '../components/card-section';
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
      <CardSection id="enrol-passkey" title="Passkey">
        <PasskeyEnrolment onRegistered={setSession} />
      </CardSection>
      <CardSection id="enrol-totp" title="Authenticator app">
        <TotpEnrolment onConfirmed={setSession} />
      </CardSection>
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
