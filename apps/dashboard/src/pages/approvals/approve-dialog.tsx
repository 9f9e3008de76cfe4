import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DashboardComponents } from '@paysign/contracts';
import { useApi } from '../../api/api-context';
import { Dialog } from '../../components/dialog';
import { ErrorAlert } from '../../components/error-alert';
import { Money } from '../../components/money';
import { assertWithPasskey } from '../../factors/passkey';
import { TotpCodeForm } from '../../factors/totp-code-form';
import { useSession } from '../../session/use-session';
import { APPROVALS_KEY } from './approvals-page';

type ApprovalBinding = DashboardComponents['schemas']['ApprovalBinding'];

/**
 * Approves one payout or batch. The service binds the passkey challenge to
 * what is shown here (reference, amount, currency, destination, count), so
 * the binding displayed is the one the service answered with the challenge.
 */
export function ApproveDialog({ approval, onClose }: { approval: ApprovalBinding; onClose: () => void }) {
  const { client, call } = useApi();
  const queryClient = useQueryClient();
  const session = useSession();
  const path = { params: { path: { kind: approval.kind, reference: approval.reference } } };
  const hasPasskey = session.factors.passkeys > 0;

  const challenge = useQuery({
    queryKey: ['approval-challenge', approval.kind, approval.reference],
    queryFn: () => call(() => client.POST('/approvals/{kind}/{reference}/options', path)),
    enabled: hasPasskey,
    // A challenge is used once; never serve a stale one from the cache.
    gcTime: 0,
    staleTime: Infinity,
    retry: false,
  });
  const done = () => queryClient.invalidateQueries({ queryKey: APPROVALS_KEY });
  const withPasskey = useMutation({
    mutationFn: async () => {
      if (!challenge.data) throw new Error('The passkey challenge has not arrived yet.');
      const passkey = await assertWithPasskey(challenge.data.options);
      return call(() => client.POST('/approvals/{kind}/{reference}', { ...path, body: { passkey } }));
    },
    onSuccess: done,
  });
  const withCode = useMutation({
    mutationFn: (code: string) => call(() => client.POST('/approvals/{kind}/{reference}', { ...path, body: { totpCode: code } })),
    onSuccess: done,
  });
  const result = withPasskey.data ?? withCode.data;
  const binding = challenge.data?.binding ?? approval;

  return (
    <Dialog title={`Approve ${approval.kind} ${approval.reference}`} onClose={onClose}>
      {challenge.isPending && hasPasskey ? <p>Preparing the approval…</p> : null}
      <ErrorAlert error={challenge.error} />
      <dl className="details binding">
        <dt>Kind</dt>
        <dd>{binding.kind}</dd>
        <dt>Reference</dt>
        <dd><code>{binding.reference}</code></dd>
        <dt>Amount</dt>
        <dd><Money amount={binding.amount} currency={binding.currency} /></dd>
        <dt>Currency</dt>
        <dd>{binding.currency}</dd>
        <dt>Destination</dt>
        <dd>{binding.destination}</dd>
        <dt>Count</dt>
        <dd>{binding.count}</dd>
      </dl>
      {result ? (
        <p role="status">
          Approved: {result.kind} {result.reference} is {result.status}.
        </p>
      ) : (
        <>
          {hasPasskey ? (
            <div className="factor-choice">
              <button type="button" className="button" onClick={() => withPasskey.mutate()} disabled={!challenge.data || withPasskey.isPending}>
                Approve with passkey
              </button>
              <ErrorAlert error={withPasskey.error} />
            </div>
          ) : null}
          {session.factors.totp ? (
            <TotpCodeForm
              className="factor-choice"
              label="Authentication code"
              submitLabel="Approve with code"
              busy={withCode.isPending}
              error={withCode.error}
              onSubmit={(code) => withCode.mutate(code)}
            />
          ) : null}
        </>
      )}
      <div className="actions">
        <button type="button" className="button secondary" onClick={onClose}>
          {result ? 'Close' : 'Cancel'}
        </button>
      </div>
    </Dialog>
  );
}
