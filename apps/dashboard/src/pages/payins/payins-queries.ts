import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { DashboardComponents, DashboardPaths } from '@paysign/contracts';
import { useApi } from '../../api/api-context';

type Schemas = DashboardComponents['schemas'];
export type PayinFilters = NonNullable<DashboardPaths['/payins']['get']['parameters']['query']>;
export type RefundStatus = Schemas['RefundStatus'];

/** Query keys of the payins: each list by its filters, and each payin's page. */
export const payinsKeys = {
  all: ['payins'] as const,
  lists: () => [...payinsKeys.all, 'list'] as const,
  list: (filters: PayinFilters) => [...payinsKeys.lists(), filters] as const,
  detail: (reference: string) => [...payinsKeys.all, 'detail', reference] as const,
};

/** A refund that the provider may still move. */
export const REFUND_IN_FLIGHT: ReadonlySet<RefundStatus> = new Set(['PENDING', 'PROCESSING', 'REQUIRES_ACTION']);
/** How often a payin's page reads itself again while one of its refunds is in flight. */
const REFRESH_WHILE_IN_FLIGHT_MS = 2000;

/** The payins the filters find, newest first, a page at a time. */
export function usePayins(filters: PayinFilters) {
  const { client, call } = useApi();
  return useInfiniteQuery({
    queryKey: payinsKeys.list(filters),
    initialPageParam: undefined as string | undefined,
    queryFn: ({ pageParam }) => call(() => client.GET('/payins', { params: { query: { ...filters, after: pageParam } } })),
    getNextPageParam: (page) => page.nextCursor ?? undefined,
  });
}

/** A payin's page; read again every 2 s while a refund of it is in flight, so that its state shows as it moves. */
export function usePayin(reference: string) {
  const { client, call } = useApi();
  return useQuery({
    queryKey: payinsKeys.detail(reference),
    queryFn: () => call(() => client.GET('/payins/{reference}', { params: { path: { reference } } })),
    refetchInterval: (query) => (query.state.data?.refunds.some((refund) => REFUND_IN_FLIGHT.has(refund.status)) ? REFRESH_WHILE_IN_FLIGHT_MS : false),
  });
}

/** Refunds the payin; its page and the lists (its amount refunded) are read again. */
export function useCreateRefund(reference: string) {
  const { client, call } = useApi();
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: Schemas['DashboardRefundRequest']) => call(() => client.POST('/payins/{reference}/refunds', { params: { path: { reference } }, body })),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: payinsKeys.detail(reference) });
      await queryClient.invalidateQueries({ queryKey: payinsKeys.lists() });
    },
  });
}
