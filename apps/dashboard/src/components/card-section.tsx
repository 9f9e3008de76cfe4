import type { ReactNode } from 'react';

interface CardSectionProps {
  /** The id of the h2, which names the section: a screen reader lists the section by it. */
  id: string;
  /** The h2's text. */
  title: string;
  children: ReactNode;
}

/** One card of a page: a section named by its own h2. */
export function CardSection({ id, title, children }: CardSectionProps) {
  return (
    <section aria-labelledby={id} className="card">
      <h2 id={id}>{title}</h2>
      {children}
    </section>
  );
}
