import type { BalanceEntry, CreateSettlementRequest, SetSettlementScheduleRequest, Settlement, SettlementAccountState, SettlementSchedule, paths } from '@paysign/contracts';
import type { Client } from 'openapi-fetch';
import { expectData } from './expect-data';
import { AutoPaginatingList } from './pagination';
import type { SignedTransport } from './signed-transport';

export type ListSettlementsParams = NonNullable<paths['/payment/api/settlements']['get']['parameters']['query']>;
export type ListSettlementEntriesParams = NonNullable<paths['/payment/api/settlements/{id}/entries']['get']['parameters']['query']>;

/** The namespace `client.settlements`. */
export type SettlementsApi = ReturnType<typeof settlementsOf>;

/**
 * The calls of `client.settlements` (docs/settlements.md): the account your
 * `available` balance is paid to, the schedule, settling now, and each
 * settlement with exactly the balance entries it covered. Changing anything
 * needs a credential with the `settlements:manage` role; reading needs none.
 */
export function settlementsOf(http: Client<paths>, transport: SignedTransport) {
  return {
    /** The settlement account in force (`current`) and a change waiting for its delay (`pending`). */
    account: async (): Promise<SettlementAccountState> => expectData(await http.GET('/payment/api/settlement-account')),

    /**
     * Names the settlement account, by the `enquiryId` of an enquiry of your
     * own account. The first is in force at once; a change waits the
     * service's delay (a day by default), announced by
     * `settlement_account.changed` events, and can be cancelled meanwhile.
     * Sent again only after a refusal that did nothing: a second change
     * while one waits starts its delay again.
     * @throws {NotFoundError | ValidationError} ENQUIRY_NOT_FOUND, ENQUIRY_EXPIRED: enquire the account again.
     * @throws {PermissionError} with code ROLE_REQUIRED when the credential lacks the `settlements:manage` role.
     */
    setAccount: async (enquiryId: string): Promise<SettlementAccountState> =>
      expectData(await http.PUT('/payment/api/settlement-account', { body: { enquiryId }, fetch: transport.fetchNotIdempotent })),

    /**
     * Cancels the change of account waiting for its delay.
     * @throws {ConflictError} with code SETTLEMENT_ACCOUNT_CHANGE_NOT_PENDING when none waits.
     */
    cancelAccountChange: async (): Promise<SettlementAccountState> => expectData(await http.POST('/payment/api/settlement-account/cancel', { body: {} })),

    /** The schedule, with whether a failed settlement paused it and when it next runs. */
    schedule: async (): Promise<SettlementSchedule> => expectData(await http.GET('/payment/api/settlement-schedule')),

    /** Sets the schedule (`daily`, `weekly` with a `weekday`, or `manual`) and its minimum; it also resumes a schedule a failed settlement paused. */
    setSchedule: async (schedule: SetSettlementScheduleRequest): Promise<SettlementSchedule> => expectData(await http.PUT('/payment/api/settlement-schedule', { body: schedule })),

    /**
     * Settles the whole `available` balance now, whatever the schedule.
     * `reference` is your idempotency key: a retry with it (after a timeout
     * or a lost connection) answers the settlement it made, with
     * `idempotentReplayed: true`, and never makes a second.
     * @throws {ConflictError} SETTLEMENT_ACCOUNT_NOT_SET, SETTLEMENTS_PAUSED.
     * @throws {ValidationError} NOTHING_TO_SETTLE when the balance is below the minimum payout; SETTLEMENTS_NOT_ENABLED when the deployment does not settle yet.
     */
    create: async (input: CreateSettlementRequest): Promise<Settlement & { idempotentReplayed: boolean }> => {
      const result = await http.POST('/payment/api/settlements', { body: input });
      return { ...expectData(result), idempotentReplayed: result.response.headers.get('idempotent-replayed') === 'true' };
    },

    /** @throws {NotFoundError} with code SETTLEMENT_NOT_FOUND. */
    get: async (id: string): Promise<Settlement> => expectData(await http.GET('/payment/api/settlements/{id}', { params: { path: { id } } })),

    /** Your settlements, newest first: `await` it for a page, or `for await` every settlement across pages. */
    list: (filters: ListSettlementsParams = {}): AutoPaginatingList<Settlement> => {
      const { cursor: first, ...rest } = filters;
      return new AutoPaginatingList<Settlement>(async (cursor) => {
        const from = cursor ?? first;
        return expectData(await http.GET('/payment/api/settlements', { params: { query: { ...rest, ...(from ? { cursor: from } : {}) } } }));
      });
    },

    /** Exactly the balance entries the settlement covered, newest first; they sum to its amount. */
    entries: (id: string, filters: ListSettlementEntriesParams = {}): AutoPaginatingList<BalanceEntry> => {
      const { cursor: first, ...rest } = filters;
      return new AutoPaginatingList<BalanceEntry>(async (cursor) => {
        const from = cursor ?? first;
        return expectData(await http.GET('/payment/api/settlements/{id}/entries', { params: { path: { id }, query: { ...rest, ...(from ? { cursor: from } : {}) } } }));
      });
    },
  };
}
