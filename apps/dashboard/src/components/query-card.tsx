import type { ReactNode } from 'react';
import { CardSection } from './card-section';
import { QueryStatus } from './query-status';

interface QueryCardProps<Data> {
  /** The id of the card's h2. */
  id: string;
  /** The card's h2. */
  title: string;
  query: { error: unknown; isPending: boolean; data: Data | undefined };
  /** The card's content once the data has arrived. */
  children: (data: Data) => ReactNode;
}

/** A card whose content is one query's result: its error or loading state until the data arrives. */
export function QueryCard<Data>({ id, title, query, children }: QueryCardProps<Data>) {
  return (
    <CardSection id={id} title={title}>
      <QueryStatus query={query} />
      {query.data === undefined ? null : children(query.data)}
    </CardSection>
  );
}
