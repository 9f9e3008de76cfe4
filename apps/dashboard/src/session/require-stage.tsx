import type { ReactNode } from 'react';
import { Navigate } from 'react-router';
import { ErrorAlert } from '../components/error-alert';
import type { Session } from './session-types';
import { useSessionQuery } from './use-session';

type Stage = Session['stage'] | 'signed_out';

/** Where each stage of a session belongs. */
const HOME_OF_STAGE: Record<Stage, string> = {
  signed_out: '/sign-in',
  second_factor: '/sign-in',
  enrol: '/enrol',
  active: '/',
};

/** Shows its children only at the stages given; any other stage goes where it belongs (GET /session decides). */
export function RequireStage({ stages, children }: { stages: readonly Stage[]; children: ReactNode }) {
  const session = useSessionQuery();
  if (session.isPending) return <p role="status">Loading…</p>;
  if (session.isError) {
    return (
      <>
        <ErrorAlert error={session.error} />
        <button type="button" className="button" onClick={() => session.refetch()}>
          Try again
        </button>
      </>
    );
  }
  const stage: Stage = session.data?.stage ?? 'signed_out';
  if (!stages.includes(stage)) return <Navigate to={HOME_OF_STAGE[stage]} replace />;
  return children;
}
