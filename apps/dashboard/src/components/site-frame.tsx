import type { ReactNode } from 'react';
import { Outlet } from 'react-router';

interface SiteFrameProps {
  /** The site header's content. */
  header: ReactNode;
  /** The main region's class; default: none. */
  mainClassName?: string;
}

/** What every page stands in: a skip link, the site header, and the main region the skip link lands on. */
export function SiteFrame({ header, mainClassName }: SiteFrameProps) {
  return (
    <>
      <a className="skip-link" href="#main">
        Skip to main content
      </a>
      <header className="site-header">{header}</header>
      <main id="main" tabIndex={-1} className={mainClassName}>
        <Outlet />
      </main>
    </>
  );
}
