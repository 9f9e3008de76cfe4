import { useMutation } from '@tanstack/react-query';
import { useId, useState } from 'react';
import { useApi } from '../api/api-context';
import { ErrorAlert } from '../components/error-alert';
import type { Session } from '../session/session-types';
import { createPasskey } from './passkey';

/** Registers a passkey: the service's creation options, the browser's ceremony, then the result with a name. */
export function PasskeyEnrolment({ onRegistered }: { onRegistered: (session: Session) => void }) {
  const { client, call } = useApi();
  const nameId = useId();
  const [name, setName] = useState('My passkey');
  const [done, setDone] = useState(false);

  const register = useMutation({
    mutationFn: async () => {
      const options = await call(() => client.POST('/factors/passkeys/options'));
      const response = await createPasskey(options);
      return call(() => client.POST('/factors/passkeys', { body: { response, name } }));
    },
    onSuccess: (session) => {
      setDone(true);
      onRegistered(session);
    },
  });

  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        setDone(false);
        register.mutate();
      }}
    >
      <div className="field">
        <label htmlFor={nameId}>Passkey name</label>
        <input id={nameId} required maxLength={64} value={name} onChange={(event) => setName(event.target.value)} />
      </div>
      <button type="submit" className="button" disabled={register.isPending}>
        Add a passkey
      </button>
      <ErrorAlert error={register.error} />
      <p role="status">{done ? `Passkey “${name}” is registered.` : ''}</p>
    </form>
  );
}
