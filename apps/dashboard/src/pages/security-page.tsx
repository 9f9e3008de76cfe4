import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useApi } from '../api/api-context';
import { CardSection } from '../components/card-section';
import { ConfirmDialog } from '../components/confirm-dialog';
import { DataTable } from '../components/data-table';
import { DateTime } from '../components/date-time';
import { ErrorAlert } from '../components/error-alert';
import { Page } from '../components/page';
import { PasskeyEnrolment } from '../factors/passkey-enrolment';
import { TotpEnrolment } from '../factors/totp-enrolment';
import { useSetSession } from '../session/use-session';
import type { Session } from '../session/session-types';

const FACTORS_KEY = ['factors'] as const;

/** The member's own factors and sessions. */
export function SecurityPage() {
  const { client, call } = useApi();
  const queryClient = useQueryClient();
  const setSession = useSetSession();
  const factors = useQuery({ queryKey: FACTORS_KEY, queryFn: () => call(() => client.GET('/factors')) });
  const [everywhere, setEverywhere] = useState(false);
  const added = async (session: Session) => {
    setSession(session);
    await queryClient.invalidateQueries({ queryKey: FACTORS_KEY });
  };
  const signOut = useMutation({ mutationFn: () => call(() => client.POST('/sign-out')), onSuccess: () => setSession(null) });
  const signOutEverywhere = useMutation({ mutationFn: () => call(() => client.POST('/sign-out-everywhere')), onSuccess: () => setSession(null) });

  return (
    <Page title="Security">
      <CardSection id="passkeys" title="Passkeys">
        <ErrorAlert error={factors.error} />
        {factors.data ? (
          <DataTable
            label="Your passkeys"
            rows={factors.data.passkeys}
            empty={<p>No passkey yet.</p>}
            head={
              <>
                <th scope="col">Name</th>
                <th scope="col">Added</th>
                <th scope="col">Last used</th>
              </>
            }
            row={(passkey) => (
              <tr key={passkey.id}>
                <th scope="row">{passkey.name}</th>
                <td><DateTime value={passkey.createdAt} /></td>
                <td><DateTime value={passkey.lastUsedAt} /></td>
              </tr>
            )}
          />
        ) : null}
        <PasskeyEnrolment onRegistered={added} />
      </CardSection>
      <CardSection id="totp" title="Authenticator app">
        {factors.data ? <p>{factors.data.totp ? 'An authenticator app is set up. Setting up another replaces it.' : 'No authenticator app is set up.'}</p> : null}
        <TotpEnrolment onConfirmed={added} />
      </CardSection>
      <CardSection id="sessions" title="Sessions">
        <div className="actions">
          <button type="button" className="button secondary" onClick={() => signOut.mutate()} disabled={signOut.isPending}>
            Sign out
          </button>
          <button type="button" className="button danger" onClick={() => setEverywhere(true)}>
            Sign out everywhere
          </button>
        </div>
        <ErrorAlert error={signOut.error} />
      </CardSection>
      {everywhere ? (
        <ConfirmDialog
          title="Sign out everywhere?"
          confirmLabel="Sign out of every session"
          onConfirm={() => signOutEverywhere.mutate()}
          onClose={() => setEverywhere(false)}
          busy={signOutEverywhere.isPending}
          error={signOutEverywhere.error}
        >
          <p>Every session of yours ends, on this device and on every other.</p>
        </ConfirmDialog>
      ) : null}
    </Page>
  );
}
