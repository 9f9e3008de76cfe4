import { useEffect, useRef, type ReactNode } from 'react';

const PRODUCT_NAME = 'Paysign dashboard';
let firstPageShown = false;

/** A page: its one h1, the document's title, and focus on the heading after a navigation. */
export function Page({ title, children, actions }: { title: string; children: ReactNode; actions?: ReactNode }) {
  const heading = useRef<HTMLHeadingElement>(null);

  useEffect(() => {
    document.title = `${title} · ${PRODUCT_NAME}`;
  }, [title]);

  useEffect(() => {
    // After a client-side navigation a screen reader would otherwise stay on the old link.
    if (firstPageShown) heading.current?.focus();
    firstPageShown = true;
  }, []);

  return (
    <>
      <div className="page-heading">
        <h1 ref={heading} tabIndex={-1}>
          {title}
        </h1>
        {actions}
      </div>
      {children}
    </>
  );
}
