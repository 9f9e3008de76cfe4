import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DashboardComponents } from '@paysign/contracts';
import { useId, useState } from 'react';
import { useApi } from '../api/api-context';
import { CardSection } from '../components/card-section';
import { ConfirmDialog } from '../components/confirm-dialog';
import { DataTable } from '../components/data-table';
import { DateTime } from '../components/date-time';
import { ErrorAlert } from '../components/error-alert';
import { Page } from '../components/page';
import { QueryStatus } from '../components/query-status';
import { SecretDialog } from '../components/secret-dialog';
import { assignableRoles, can } from '../session/access';
import type { Role } from '../session/session-types';
import { useSession } from '../session/use-session';

type Member = DashboardComponents['schemas']['Member'];
type Invitation = DashboardComponents['schemas']['Invitation'];
const TEAM_KEY = ['team'] as const;

/** Members and pending invitations; owners and admins invite, change roles and remove. */
export function TeamPage() {
  const { client, call } = useApi();
  const session = useSession();
  const manage = can(session.member.role, 'manageTeam');
  const team = useQuery({ queryKey: TEAM_KEY, queryFn: () => call(() => client.GET('/members')) });
  const [invited, setInvited] = useState<Invitation | null>(null);
  const [removing, setRemoving] = useState<Member | null>(null);

  return (
    <Page title="Team">
      {manage ? (
        <CardSection id="invite" title="Invite a member">
          <InviteForm onInvited={setInvited} />
        </CardSection>
      ) : null}
      <QueryStatus query={team} />
      {team.data ? (
        <>
          <CardSection id="members" title="Members">
            <DataTable
              label="Team members"
              rows={team.data.members}
              head={
                <>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Joined</th>
                  {manage ? <th scope="col">Actions</th> : null}
                </>
              }
              row={(member) => (
                <tr key={member.id}>
                  <th scope="row">{member.email}</th>
                  <td>{manage && member.id !== session.member.id ? <RoleChanger member={member} /> : member.role}</td>
                  <td><DateTime value={member.createdAt} /></td>
                  {manage ? (
                    <td>
                      {member.id !== session.member.id ? (
                        <button type="button" className="button danger small" onClick={() => setRemoving(member)}>
                          Remove<span className="visually-hidden"> {member.email}</span>
                        </button>
                      ) : (
                        'You'
                      )}
                    </td>
                  ) : null}
                </tr>
              )}
            />
          </CardSection>
          <CardSection id="invitations" title="Pending invitations">
            <DataTable
              label="Invitations not yet accepted"
              rows={team.data.invitations}
              empty={<p>No invitation is pending.</p>}
              head={
                <>
                  <th scope="col">Email</th>
                  <th scope="col">Role</th>
                  <th scope="col">Expires</th>
                </>
              }
              row={(invitation) => (
                <tr key={invitation.email}>
                  <th scope="row">{invitation.email}</th>
                  <td>{invitation.role}</td>
                  <td><DateTime value={invitation.expiresAt} /></td>
                </tr>
              )}
            />
          </CardSection>
        </>
      ) : null}
      {invited?.url ? (
        <SecretDialog title={`Invitation for ${invited.email}`} label="Invitation link" secret={invited.url} onClose={() => setInvited(null)}>
          <p>
            {invited.mailed ? 'It was also emailed to them. ' : 'No email was sent: pass the link on yourself. '}
            The link works once, until <DateTime value={invited.expiresAt} />.
          </p>
        </SecretDialog>
      ) : null}
      {removing ? <RemoveDialog member={removing} onClose={() => setRemoving(null)} /> : null}
    </Page>
  );
}

function InviteForm({ onInvited }: { onInvited: (invitation: Invitation) => void }) {
  const { client, call } = useApi();
  const queryClient = useQueryClient();
  const session = useSession();
  const emailId = useId();
  const roleId = useId();
  const [email, setEmail] = useState('');
  const [role, setRole] = useState<Role>('viewer');
  const invite = useMutation({
    mutationFn: () => call(() => client.POST('/invitations', { body: { email, role } })),
    onSuccess: async (invitation) => {
      setEmail('');
      onInvited(invitation);
      await queryClient.invalidateQueries({ queryKey: TEAM_KEY });
    },
  });
  return (
    <form
      className="inline-form"
      onSubmit={(event) => {
        event.preventDefault();
        invite.mutate();
      }}
    >
      <div className="field">
        <label htmlFor={emailId}>Email</label>
        <input id={emailId} type="email" required maxLength={254} value={email} onChange={(event) => setEmail(event.target.value)} />
      </div>
      <div className="field">
        <label htmlFor={roleId}>Role</label>
        <select id={roleId} value={role} onChange={(event) => setRole(event.target.value as Role)}>
          {assignableRoles(session.member.role).map((candidate) => (
            <option key={candidate} value={candidate}>
              {candidate}
            </option>
          ))}
        </select>
      </div>
      <button type="submit" className="button" disabled={invite.isPending}>
        Send invitation
      </button>
      <ErrorAlert error={invite.error} />
    </form>
  );
}

function RoleChanger({ member }: { member: Member }) {
  const { client, call } = useApi();
  const queryClient = useQueryClient();
  const session = useSession();
  const selectId = useId();
  const [role, setRole] = useState<Role>(member.role);
  const change = useMutation({
    mutationFn: () => call(() => client.PATCH('/members/{memberId}', { params: { path: { memberId: member.id } }, body: { role } })),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: TEAM_KEY }),
  });
  const choices = assignableRoles(session.member.role);
  return (
    <form
      className="inline-form compact"
      onSubmit={(event) => {
        event.preventDefault();
        change.mutate();
      }}
    >
      <label htmlFor={selectId} className="visually-hidden">
        Role of {member.email}
      </label>
      <select id={selectId} value={role} onChange={(event) => setRole(event.target.value as Role)}>
        {(choices.includes(member.role) ? choices : [member.role, ...choices]).map((candidate) => (
          <option key={candidate} value={candidate}>
            {candidate}
          </option>
        ))}
      </select>
      <button type="submit" className="button secondary small" disabled={change.isPending || role === member.role}>
        Save role<span className="visually-hidden"> of {member.email}</span>
      </button>
      <ErrorAlert error={change.error} />
    </form>
  );
}

function RemoveDialog({ member, onClose }: { member: Member; onClose: () => void }) {
  const { client, call } = useApi();
  const queryClient = useQueryClient();
  const remove = useMutation({
    mutationFn: () => call(() => client.DELETE('/members/{memberId}', { params: { path: { memberId: member.id } } })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: TEAM_KEY });
      onClose();
    },
  });
  return (
    <ConfirmDialog
      title={`Remove ${member.email}?`}
      confirmLabel="Remove member"
      onConfirm={() => remove.mutate()}
      onClose={onClose}
      busy={remove.isPending}
      error={remove.error}
    >
      <p>Their sessions end at once, and they can no longer sign in to this merchant's dashboard.</p>
    </ConfirmDialog>
  );
}
