/** How long an old key or signing secret keeps working after a roll: the contract's enum. */
export type Overlap = 'now' | '1h' | '24h' | '7d';

export const OVERLAPS: readonly { value: Overlap; label: string }[] = [
  { value: 'now', label: 'Now' },
  { value: '1h', label: 'In 1 hour' },
  { value: '24h', label: 'In 24 hours' },
  { value: '7d', label: 'In 7 days' },
];

/** The overlap a roll offers first: a day gives most deployments time to switch. */
export const DEFAULT_OVERLAP: Overlap = '24h';
