import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DashboardComponents } from '@paysign/contracts';
import { useApi } from '../../api/api-context';
import { balanceKeys } from '../balance/balance-queries';

type Schemas = DashboardComponents['schemas'];

/** The settlements' query keys; each mutation below invalidates exactly what it changed. */
export const settlementKeys = {
  all: ['settlements'] as const,
  schedule: () => [...settlementKeys.all, 'schedule'] as const,
  account: () => [...settlementKeys.all, 'account'] as const,
  lists: () => [...settlementKeys.all, 'list'] as const,
  detail: (id: string) => [...settlementKeys.all, 'detail', id] as const,
  entries: (id: string) => [...settlementKeys.all, 'entries', id] as const,
};

export function useSettlementSchedule() {
  const { client, call } = useApi();
  return useQuery({ queryKey: settlementKeys.schedule(), queryFn: () => call(() => client.GET('/settlement-schedule')) });
}

export function useSetSettlementSchedule() {
  const { client, call } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas['SetSettlementScheduleRequest']) => call(() => client.PUT('/settlement-schedule', { body })),
    onSuccess: (schedule) => queryClient.setQueryData(settlementKeys.schedule(), schedule),
  });
}

export function useSettlementAccount() {
  const { client, call } = useApi();
  return useQuery({ queryKey: settlementKeys.account(), queryFn: () => call(() => client.GET('/settlement-account')) });
}

export function useSetSettlementAccount() {
  const { client, call } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (enquiryId: string) => call(() => client.PUT('/settlement-account', { body: { enquiryId } })),
    onSuccess: (state) => {
      queryClient.setQueryData(settlementKeys.account(), state);
      // The schedule's next run depends on an account being in force.
      return queryClient.invalidateQueries({ queryKey: settlementKeys.schedule() });
    },
  });
}

export function useCancelSettlementAccountChange() {
  const { client, call } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => call(() => client.POST('/settlement-account/cancel')),
    onSuccess: (state) => queryClient.setQueryData(settlementKeys.account(), state),
  });
}

export function useSettlements() {
  const { client, call } = useApi();
  return useInfiniteQuery({
    queryKey: settlementKeys.lists(),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => call(() => client.GET('/settlements', { params: { query: { cursor: pageParam } } })),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

/** Settles now; `reference` is made once per request shown, so that the repeat after a step-up is the same request. */
export function useSettleNow() {
  const { client, call } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (reference: string) => call(() => client.POST('/settlements', { body: { reference, currency: 'NGN' } })),
    onSuccess: async () => {
      await Promise.all([queryClient.invalidateQueries({ queryKey: settlementKeys.lists() }), queryClient.invalidateQueries({ queryKey: balanceKeys.all })]);
    },
  });
}

export function useSettlement(id: string) {
  const { client, call } = useApi();
  return useQuery({ queryKey: settlementKeys.detail(id), queryFn: () => call(() => client.GET('/settlements/{id}', { params: { path: { id } } })) });
}

export function useSettlementEntries(id: string) {
  const { client, call } = useApi();
  return useInfiniteQuery({
    queryKey: settlementKeys.entries(id),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => call(() => client.GET('/settlements/{id}/entries', { params: { path: { id }, query: { cursor: pageParam } } })),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}
