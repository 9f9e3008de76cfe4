import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DashboardComponents } from '@paysign/contracts';
import { useState } from 'react';
import { Link } from 'react-router';
import { useApi } from '../../api/api-context';
import { CardSection } from '../../components/card-section';
import { DataTable } from '../../components/data-table';
import { DateTime } from '../../components/date-time';
import { ErrorAlert } from '../../components/error-alert';
import { Page } from '../../components/page';
import { QueryCard } from '../../components/query-card';
import { SecretDialog } from '../../components/secret-dialog';
import { can } from '../../session/access';
import { useSession } from '../../session/use-session';
import { EndpointFields, eventList, type EndpointDraft } from './endpoint-fields';

type EndpointWithSecret = DashboardComponents['schemas']['EndpointWithSecret'];
export const ENDPOINTS_KEY = ['webhook-endpoints'] as const;

/** The merchant's webhook endpoints, and a form to add one. */
export function EndpointsPage() {
  const { client, call } = useApi();
  const session = useSession();
  const manage = can(session.member.role, 'manageEndpoints');
  const endpoints = useQuery({ queryKey: ENDPOINTS_KEY, queryFn: () => call(() => client.GET('/webhook-endpoints')) });
  const [created, setCreated] = useState<EndpointWithSecret | null>(null);

  return (
    <Page title="Webhook endpoints">
      {manage ? (
        <CardSection id="create-endpoint" title="Add an endpoint">
          <CreateEndpointForm onCreated={setCreated} />
        </CardSection>
      ) : null}
      <QueryCard id="endpoint-list" title="Endpoints" query={endpoints}>
        {({ data }) => (
          <DataTable
            label="Webhook endpoints"
            rows={data}
            empty={<p>No endpoint yet.</p>}
            head={
              <>
                <th scope="col">URL</th>
                <th scope="col">Events</th>
                <th scope="col">Status</th>
                <th scope="col">Created</th>
              </>
            }
            row={(endpoint) => (
              <tr key={endpoint.id}>
                <th scope="row">
                  <Link to={`/webhook-endpoints/${endpoint.id}`}>{endpoint.url}</Link>
                  {endpoint.description ? <div className="hint">{endpoint.description}</div> : null}
                </th>
                <td>{endpoint.enabledEvents.join(', ')}</td>
                <td><span className={`badge ${endpoint.enabled ? 'active' : 'revoked'}`}>{endpoint.enabled ? 'Enabled' : 'Disabled'}</span></td>
                <td><DateTime value={endpoint.createdAt} /></td>
              </tr>
            )}
          />
        )}
      </QueryCard>
      {created ? (
        <SecretDialog title="Endpoint created" label="Signing secret" secret={created.secret} onClose={() => setCreated(null)}>
          <p>
            Events to <code>{created.url}</code> are signed with this secret.
          </p>
        </SecretDialog>
      ) : null}
    </Page>
  );
}

const EMPTY_DRAFT: EndpointDraft = { url: '', events: '', description: '' };

function CreateEndpointForm({ onCreated }: { onCreated: (created: EndpointWithSecret) => void }) {
  const { client, call } = useApi();
  const queryClient = useQueryClient();
  const [draft, setDraft] = useState(EMPTY_DRAFT);
  const create = useMutation({
    mutationFn: () =>
      call(() =>
        client.POST('/webhook-endpoints', {
          body: { url: draft.url, enabledEvents: eventList(draft.events), ...(draft.description ? { description: draft.description } : {}) },
        }),
      ),
    onSuccess: async (created) => {
      setDraft(EMPTY_DRAFT);
      onCreated(created);
      await queryClient.invalidateQueries({ queryKey: ENDPOINTS_KEY });
    },
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        create.mutate();
      }}
    >
      <EndpointFields draft={draft} onChange={setDraft} />
      <button type="submit" className="button" disabled={create.isPending}>
        Create endpoint
      </button>
      <ErrorAlert error={create.error} />
    </form>
  );
}
