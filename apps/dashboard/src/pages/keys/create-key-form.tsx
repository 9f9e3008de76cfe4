import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DashboardComponents } from '@paysign/contracts';
import { useState } from 'react';
import { useApi } from '../../api/api-context';
import { ErrorAlert } from '../../components/error-alert';

type ApiKeyRole = DashboardComponents['schemas']['ApiKeyRole'];
type NewApiKey = DashboardComponents['schemas']['NewApiKey'];

// The contract's ApiKeyRole enum, with what each lets a key do.
const KEY_ROLES: readonly { role: ApiKeyRole; says: string }[] = [
  { role: 'payouts:create', says: 'create payouts' },
  { role: 'payouts:approve', says: 'approve payouts' },
  { role: 'refunds:create', says: 'create refunds' },
  { role: 'webhooks:manage', says: 'manage webhook endpoints' },
  { role: 'settlements:manage', says: 'manage settlements' },
];

/** Creates a key with the roles ticked; the new secret goes to the caller to reveal once. */
export function CreateKeyForm({ onCreated }: { onCreated: (created: NewApiKey) => void }) {
  const { client, call } = useApi();
  const queryClient = useQueryClient();
  const [roles, setRoles] = useState<ApiKeyRole[]>([]);
  const create = useMutation({
    mutationFn: () => call(() => client.POST('/keys', { body: { roles } })),
    onSuccess: async (created) => {
      setRoles([]);
      onCreated(created);
      await queryClient.invalidateQueries({ queryKey: ['keys'] });
    },
  });

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate();
      }}
    >
      <fieldset>
        <legend>Roles</legend>
        {KEY_ROLES.map(({ role, says }) => (
          <label key={role} className="checkbox">
            <input
              type="checkbox"
              checked={roles.includes(role)}
              onChange={(event) => setRoles((current) => (event.target.checked ? [...current, role] : current.filter((other) => other !== role)))}
            />
            {role} <span className="hint">({says})</span>
          </label>
        ))}
      </fieldset>
      <button type="submit" className="button" disabled={create.isPending || roles.length === 0}>
        Create key
      </button>
      <ErrorAlert error={create.error} />
    </form>
  );
}
