import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DashboardComponents } from '@paysign/contracts';
import { useState } from 'react';
import { useApi } from '../../api/api-context';
import { CardSection } from '../../components/card-section';
import { ConfirmDialog } from '../../components/confirm-dialog';
import { DateTime } from '../../components/date-time';
import { DataTable } from '../../components/data-table';
import { Page } from '../../components/page';
import { QueryCard } from '../../components/query-card';
import { SecretDialog } from '../../components/secret-dialog';
import { can } from '../../session/access';
import { useSession } from '../../session/use-session';
import { CreateKeyForm } from './create-key-form';
import { RollKeyDialog } from './roll-key-dialog';

type ApiKey = DashboardComponents['schemas']['ApiKey'];
type NewApiKey = DashboardComponents['schemas']['NewApiKey'];
export const KEYS_KEY = ['keys'] as const;

/** The merchant's API keys: listed for readers; created, rolled and revoked by those who manage them. */
export function KeysPage() {
  const { client, call } = useApi();
  const session = useSession();
  const manage = can(session.member.role, 'manageKeys');
  const keys = useQuery({ queryKey: KEYS_KEY, queryFn: () => call(() => client.GET('/keys')) });
  const [revealed, setRevealed] = useState<NewApiKey | null>(null);
  const [rolling, setRolling] = useState<ApiKey | null>(null);
  const [revoking, setRevoking] = useState<ApiKey | null>(null);

  return (
    <Page title="API keys">
      {manage ? (
        <CardSection id="create-key" title="Create a key">
          <CreateKeyForm onCreated={setRevealed} />
        </CardSection>
      ) : null}
      <QueryCard id="key-list" title="Keys" query={keys}>
        {({ data }) => (
          <DataTable
            label="API keys, newest first"
            rows={data}
            empty={<p>No key yet.</p>}
            head={
              <>
                <th scope="col">Key</th>
                <th scope="col">Roles</th>
                <th scope="col">Status</th>
                <th scope="col">Secret fingerprint</th>
                <th scope="col">Created</th>
                <th scope="col">Expires</th>
                <th scope="col">Last used</th>
                {manage ? <th scope="col">Actions</th> : null}
              </>
            }
            row={(key) => (
              <tr key={key.apiKey}>
                <th scope="row"><code>{key.apiKey}</code></th>
                <td>{key.roles.length > 0 ? key.roles.join(', ') : 'none'}</td>
                <td><span className={`badge ${key.status}`}>{key.status}</span></td>
                <td><code>{key.secretFingerprint}</code></td>
                <td><DateTime value={key.createdAt} /></td>
                <td><DateTime value={key.expiresAt} /></td>
                <td><DateTime value={key.lastUsedAt} /></td>
                {manage ? (
                  <td className="row-actions">
                    {key.status === 'active' ? (
                      <>
                        <button type="button" className="button secondary small" onClick={() => setRolling(key)}>
                          Roll<span className="visually-hidden"> key {key.apiKey}</span>
                        </button>
                        <button type="button" className="button danger small" onClick={() => setRevoking(key)}>
                          Revoke<span className="visually-hidden"> key {key.apiKey}</span>
                        </button>
                      </>
                    ) : null}
                  </td>
                ) : null}
              </tr>
            )}
          />
        )}
      </QueryCard>
      {rolling ? (
        <RollKeyDialog
          apiKey={rolling.apiKey}
          onClose={() => setRolling(null)}
          onRolled={(created) => {
            setRolling(null);
            setRevealed(created);
          }}
        />
      ) : null}
      {revoking ? <RevokeKeyDialog apiKey={revoking.apiKey} onClose={() => setRevoking(null)} /> : null}
      {revealed ? (
        <SecretDialog title={`Key ${revealed.apiKey} created`} label="Secret key" secret={revealed.secretKey} onClose={() => setRevealed(null)}>
          <p>
            API key: <code>{revealed.apiKey}</code>
            {revealed.oldKeyExpiresAt ? (
              <>
                . The old key stops working at <DateTime value={revealed.oldKeyExpiresAt} />.
              </>
            ) : null}
          </p>
        </SecretDialog>
      ) : null}
    </Page>
  );
}

function RevokeKeyDialog({ apiKey, onClose }: { apiKey: string; onClose: () => void }) {
  const { client, call } = useApi();
  const queryClient = useQueryClient();
  const revoke = useMutation({
    mutationFn: () => call(() => client.POST('/keys/{apiKey}/revoke', { params: { path: { apiKey } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: KEYS_KEY });
      onClose();
    },
  });
  return (
    <ConfirmDialog
      title={`Revoke key ${apiKey}?`}
      confirmLabel="Revoke key"
      onConfirm={() => revoke.mutate()}
      onClose={onClose}
      busy={revoke.isPending}
      error={revoke.error}
    >
      <p>Requests signed with this key are refused from now on. This cannot be undone.</p>
    </ConfirmDialog>
  );
}
