import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { DashboardComponents } from '@paysign/contracts';
import { useState } from 'react';
import { useApi } from '../../api/api-context';
import { Dialog } from '../../components/dialog';
import { ErrorAlert } from '../../components/error-alert';
import { OverlapSelect } from '../../components/overlap-select';
import { DEFAULT_OVERLAP, type Overlap } from '../../components/overlaps';

type NewApiKey = DashboardComponents['schemas']['NewApiKey'];

/** Rolls a key: a new one with the same roles, the old one ending after the overlap chosen. */
export function RollKeyDialog({ apiKey, onClose, onRolled }: { apiKey: string; onClose: () => void; onRolled: (created: NewApiKey) => void }) {
  const { client, call } = useApi();
  const queryClient = useQueryClient();
  const [overlap, setOverlap] = useState<Overlap>(DEFAULT_OVERLAP);
  const roll = useMutation({
    mutationFn: () => call(() => client.POST('/keys/{apiKey}/roll', { params: { path: { apiKey } }, body: { oldKeyExpiresIn: overlap } })),
    onSuccess: async (created) => {
      onRolled(created);
      await queryClient.invalidateQueries({ queryKey: ['keys'] });
    },
  });
  return (
    <Dialog title={`Roll key ${apiKey}`} onClose={onClose}>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          roll.mutate();
        }}
      >
        <p>A new key with the same roles replaces this one. Give your systems time to switch before the old key stops working.</p>
        <OverlapSelect label="Old key stops working" value={overlap} onChange={setOverlap} />
        <ErrorAlert error={roll.error} />
        <div className="actions">
          <button type="button" className="button secondary" onClick={onClose}>
            Cancel
          </button>
          <button type="submit" className="button" disabled={roll.isPending}>
            Roll key
          </button>
        </div>
      </form>
    </Dialog>
  );
}
