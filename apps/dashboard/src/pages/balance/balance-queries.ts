import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import type { DashboardComponents, DashboardOperations } from '@paysign/contracts';
import { useApi } from '../../api/api-context';

type EntryFilters = Omit<NonNullable<DashboardOperations['listBalanceEntries']['parameters']['query']>, 'after' | 'limit'>;
export type BalanceEntry = DashboardComponents['schemas']['BalanceEntry'];

/** The balance's query keys: every balance query starts with `all`, so a change to the money invalidates them at once. */
export const balanceKeys = {
  all: ['balance'] as const,
  balances: () => [...balanceKeys.all, 'balances'] as const,
  entries: (filters: EntryFilters) => [...balanceKeys.all, 'entries', filters] as const,
};

export function useBalances() {
  const { client, call } = useApi();
  return useQuery({ queryKey: balanceKeys.balances(), queryFn: () => call(() => client.GET('/balance')) });
}

/** The entries matching `filters`, newest first, a page at a time. */
export function useBalanceEntries(filters: EntryFilters) {
  const { client, call } = useApi();
  return useInfiniteQuery({
    queryKey: balanceKeys.entries(filters),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => call(() => client.GET('/balance/entries', { params: { query: { ...filters, after: pageParam } } })),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}
