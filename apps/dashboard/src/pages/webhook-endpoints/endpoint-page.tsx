import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DashboardComponents } from '@paysign/contracts';
import { useState } from 'react';
import { Link, useParams } from 'react-router';
import { useApi } from '../../api/api-context';
import { CardSection } from '../../components/card-section';
import { ErrorAlert } from '../../components/error-alert';
import { OverlapSelect } from '../../components/overlap-select';
import { DEFAULT_OVERLAP, type Overlap } from '../../components/overlaps';
import { Page } from '../../components/page';
import { QueryStatus } from '../../components/query-status';
import { SecretDialog } from '../../components/secret-dialog';
import { can } from '../../session/access';
import { useSession } from '../../session/use-session';
import { Deliveries, DELIVERIES_KEY } from './deliveries';
import { EndpointFields, eventList, type EndpointDraft } from './endpoint-fields';
import { ENDPOINTS_KEY } from './endpoints-page';

type Endpoint = DashboardComponents['schemas']['Endpoint'];

/** One endpoint: its settings, its signing secret, and every delivery to it. */
export function EndpointPage() {
  const { id = '' } = useParams();
  const { client, call } = useApi();
  const session = useSession();
  const manage = can(session.member.role, 'manageEndpoints');
  // The contract has no GET of one endpoint; the list is short and cached.
  const endpoints = useQuery({ queryKey: ENDPOINTS_KEY, queryFn: () => call(() => client.GET('/webhook-endpoints')) });
  const endpoint = endpoints.data?.data.find((candidate) => candidate.id === id);

  return (
    <Page title={endpoint ? `Endpoint ${endpoint.url}` : 'Webhook endpoint'}>
      <p>
        <Link to="/webhook-endpoints">All webhook endpoints</Link>
      </p>
      <QueryStatus query={endpoints} />
      {endpoints.data && !endpoint ? <p role="alert" className="alert">No endpoint {id} belongs to this merchant.</p> : null}
      {endpoint ? (
        <>
          {manage ? <EndpointSettings endpoint={endpoint} /> : <EndpointSummary endpoint={endpoint} />}
          {manage ? <SigningSecret endpoint={endpoint} /> : null}
          <Deliveries endpointId={endpoint.id} manage={manage} />
        </>
      ) : null}
    </Page>
  );
}

function EndpointSummary({ endpoint }: { endpoint: Endpoint }) {
  return (
    <CardSection id="endpoint-settings" title="Settings">
      <dl className="details">
        <dt>URL</dt>
        <dd>{endpoint.url}</dd>
        <dt>Events</dt>
        <dd>{endpoint.enabledEvents.join(', ')}</dd>
        <dt>Status</dt>
        <dd>{endpoint.enabled ? 'Enabled' : 'Disabled'}</dd>
      </dl>
    </CardSection>
  );
}

function EndpointSettings({ endpoint }: { endpoint: Endpoint }) {
  const { client, call } = useApi();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState<EndpointDraft>({ url: endpoint.url, events: endpoint.enabledEvents.join(', '), description: endpoint.description ?? '' });
  const [saved, setSaved] = useState('');
  const path = { params: { path: { id: endpoint.id } } };
  const refresh = () => queryClient.invalidateQueries({ queryKey: ENDPOINTS_KEY });
  const save = useMutation({
    mutationFn: () =>
      call(() =>
        client.PATCH('/webhook-endpoints/{id}', { ...path, body: { url: draft.url, enabledEvents: eventList(draft.events), description: draft.description || null } }),
      ),
    onSuccess: async () => {
      setSaved('Changes saved.');
      await refresh();
    },
  });
  const toggle = useMutation({
    mutationFn: () => call(() => client.PATCH('/webhook-endpoints/{id}', { ...path, body: { enabled: !endpoint.enabled } })),
    onSuccess: async (updated) => {
      setSaved(updated.enabled ? 'Endpoint enabled.' : 'Endpoint disabled.');
      await refresh();
    },
  });
  const test = useMutation({
    mutationFn: () => call(() => client.POST('/webhook-endpoints/{id}/test', path)),
    onSuccess: async (delivery) => {
      setSaved(`Test event ${delivery.eventId} queued.`);
      await queryClient.invalidateQueries({ queryKey: [...DELIVERIES_KEY, endpoint.id] });
    },
  });

  return (
    <CardSection id="endpoint-settings" title="Settings">
      <p>
        Status: <span className={`badge ${endpoint.enabled ? 'active' : 'revoked'}`}>{endpoint.enabled ? 'Enabled' : 'Disabled'}</span>
      </p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          setSaved('');
          save.mutate();
        }}
      >
        <EndpointFields draft={draft} onChange={setDraft} />
        <button type="submit" className="button" disabled={save.isPending}>
          Save changes
        </button>
      </form>
      <div className="actions">
        <button type="button" className="button secondary" onClick={() => toggle.mutate()} disabled={toggle.isPending}>
          {endpoint.enabled ? 'Disable endpoint' : 'Enable endpoint'}
        </button>
        <button type="button" className="button secondary" onClick={() => test.mutate()} disabled={test.isPending}>
          Send test event
        </button>
      </div>
      <ErrorAlert error={save.error ?? toggle.error ?? test.error} />
      <p role="status">{saved}</p>
    </CardSection>
  );
}

function SigningSecret({ endpoint }: { endpoint: Endpoint }) {
  const { client, call } = useApi();
  const queryClient = useQueryClient();
  const [overlap, setOverlap] = useState<Overlap>(DEFAULT_OVERLAP);
  const roll = useMutation({
    mutationFn: () =>
      call(() => client.POST('/webhook-endpoints/{id}/roll-secret', { params: { path: { id: endpoint.id } }, body: { oldSecretExpiresIn: overlap } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ENDPOINTS_KEY }),
  });
  return (
    <CardSection id="signing-secret" title="Signing secret">
      <p>Fingerprints of the secrets signing now: {endpoint.secretFingerprints.map((fingerprint) => <code key={fingerprint}>{fingerprint} </code>)}</p>
      <form
        onSubmit={(event) => {
          event.preventDefault();
          roll.mutate();
        }}
      >
        <OverlapSelect label="Old secret stops signing" value={overlap} onChange={setOverlap} />
        <button type="submit" className="button" disabled={roll.isPending}>
          Roll secret
        </button>
        <ErrorAlert error={roll.error} />
      </form>
      {roll.data ? <SecretDialog title="New signing secret" label="Signing secret" secret={roll.data.secret} onClose={() => roll.reset()} /> : null}
    </CardSection>
  );
}
