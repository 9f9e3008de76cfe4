import type { ReactNode } from 'react';
import { Page } from '../components/page';
import { can, type Capability } from './access';
import { useSession } from './use-session';

/** A page the member's role does not admit says so, rather than showing the service's refusals. */
export function RequireCapability({ capability, children }: { capability: Capability; children: ReactNode }) {
  const session = useSession();
  if (can(session.member.role, capability)) return children;
  return (
    <Page title="Not available to your role">
      <p>Your role ({session.member.role}) does not give access to this page. An owner or admin of your team can change your role.</p>
    </Page>
  );
}
