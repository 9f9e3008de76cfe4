import { useEffect, useState } from 'react';
import { NavLink, useLocation } from 'react-router';
import { can, type Capability } from '../session/access';
import { useSession } from '../session/use-session';
import { SiteFrame } from './site-frame';

interface NavItem {
  to: string;
  label: string;
  /** Shown only to roles with this capability; always shown without one. */
  capability?: Capability;
}

const NAV_ITEMS: readonly NavItem[] = [
  { to: '/', label: 'Home', capability: 'overview' },
  { to: '/payins', label: 'Payins', capability: 'readPayins' },
  { to: '/payouts', label: 'Payouts', capability: 'readPayouts' },
  { to: '/payout-batches', label: 'Payout batches', capability: 'readPayouts' },
  { to: '/approvals', label: 'Approvals', capability: 'approve' },
  { to: '/balance', label: 'Balance', capability: 'readBalance' },
  { to: '/settlements', label: 'Settlements', capability: 'readSettlements' },
  { to: '/keys', label: 'API keys', capability: 'readKeys' },
  { to: '/webhook-endpoints', label: 'Webhook endpoints', capability: 'readEndpoints' },
  { to: '/team', label: 'Team', capability: 'readTeam' },
  { to: '/security-log', label: 'Security log', capability: 'readSecurityLog' },
  { to: '/security', label: 'Security' },
];

/** The signed-in app's frame: skip link, header with the navigation the role admits, and the page. */
export function AppLayout() {
  const session = useSession();
  const location = useLocation();
  const [menuOpen, setMenuOpen] = useState(false);
  const items = NAV_ITEMS.filter((item) => item.capability === undefined || can(session.member.role, item.capability));

  // A phone's menu closes once a page is chosen.
  useEffect(() => setMenuOpen(false), [location.pathname]);

  return (
    <SiteFrame
      header={
        <>
          <div className="brand">
            <span className="brand-name">{session.merchant.name}</span>
            <span className="brand-product">Paysign dashboard</span>
          </div>
          <button type="button" className="menu-button" aria-expanded={menuOpen} aria-controls="main-nav" onClick={() => setMenuOpen((open) => !open)}>
            Menu
          </button>
          <nav id="main-nav" aria-label="Main" className={menuOpen ? 'main-nav open' : 'main-nav'}>
            <ul>
              {items.map((item) => (
                <li key={item.to}>
                  <NavLink to={item.to} end={item.to === '/'}>
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <p className="who">
            {session.member.email} <span className="role">({session.member.role})</span>
          </p>
        </>
      }
    />
  );
}

/** The frame of the pages before signing in: no navigation, only the page. */
export function PublicLayout() {
  return (
    <SiteFrame
      mainClassName="public"
      header={
        <div className="brand">
          <span className="brand-name">Paysign dashboard</span>
        </div>
      }
    />
  );
}
