// The fake provider's objects, its faults and its handle, as tests see them (index.ts serves them).

/** How a transfer to an account turns out at the fake. */
export type AccountBehaviour =
  | { kind: 'success' }
  | { kind: 'failed'; reason: string }
  /** Pending until verified `verifications` times, then successful. */
  | { kind: 'pending-then-success'; verifications: number }
  /** Successful, then reversed once verified `verifications` times. */
  | { kind: 'reversed-after'; verifications: number };

export interface FakeAccount {
  bankCode: string;
  accountNumber: string;
  accountName: string;
  behaviour?: AccountBehaviour;
}

export interface FakeTransfer {
  reference: string;
  transferCode: string;
  recipientCode: string;
  amount: number;
  currency: string;
  reason: string;
  status: string;
  failureText: string | null;
  verifications: number;
  /** When the fake took it (its `createdAt`), which the list calls filter on. */
  createdAt: string;
}

export interface FakeTransaction {
  /** Paystack's own id of the transaction, which its refunds name. */
  id: number;
  reference: string;
  accessCode: string;
  amount: number;
  currency: string;
  email: string;
  channels: string[];
  callbackUrl: string | null;
  status: 'abandoned' | 'success' | 'failed';
  gatewayResponse: string;
  paidAt: string | null;
  /** When it was initialized (its `createdAt`), which List Transactions filters on. */
  createdAt: string;
}

/** A settlement of the fake's to the integration's bank account: only listed (List Settlements), as tests add them. */
export interface FakeSettlement {
  id: number;
  status: 'success' | 'pending' | 'processing';
  currency: string;
  totalAmount: number;
  totalFees: number;
  settlementDate: string;
  createdAt: string;
}

/**
 * Where the list calls (GET /transaction, /transfer, /refund, /settlement
 * over a time range, which reconciliation reads) disagree with what this
 * fake did: for those listings only, never for verify or fetch.
 */
export interface ListingDisagreements {
  /** Successful transactions listed that no call made: taken outside the service, or never reported to it. */
  extraTransactions: Array<{ reference: string; amount: number; currency?: string; createdAt?: string }>;
  /** Transfers listed `reversed`, by reference, whatever their status here. */
  reversedTransfers: Set<string>;
  /** Transactions and transfers listed with another amount, by reference: plus this many kobo. */
  amountDeltas: Map<string, number>;
}

/** The refund statuses Paystack documents (https://paystack.com/docs/payments/refunds/). */
export type FakeRefundStatus = 'pending' | 'processing' | 'processed' | 'failed' | 'needs-attention';

export interface FakeRefund {
  id: number;
  transactionId: number;
  transactionReference: string;
  amount: number;
  currency: string;
  status: FakeRefundStatus;
  customerNote: string;
  merchantNote: string;
  /** The customer's account a refund in `needs-attention` was retried to. */
  account: { currency: string; accountNumber: string; bankId: number } | null;
  createdAt: string;
}

/** A bank of List Banks: Paystack's id and code. */
export interface FakeBank {
  id: number;
  code: string;
  name: string;
}

/** The faults a test can ask for; each applies to the calls named, and counts down. */
export interface Faults {
  /** The next `count` API calls (of `route`, or any) answer 500. */
  serverErrors: { count: number; route?: RouteName };
  /** The next `count` calls of a route are handled, then their answer never comes: the client's timeout ends each. */
  hangAfterHandling: Map<RouteName, number>;
  /** Resolve Account at these bank codes never answers, as a bank slow to answer its name enquiries: the client's timeout ends each call. Other banks answer. */
  slowBanks: Set<string>;
  /** Verify Transaction reports a payment for another amount: `amount` and `requested_amount` both plus this many kobo. */
  reportedAmountDelta: number;
  /**
   * Verify Transaction reports `amount`, what was charged, plus this many
   * kobo, with `requested_amount` unchanged: positive as a fee passed on to
   * the customer, negative as a charge short of what was asked.
   */
  chargedAmountDelta: number;
  /** Each webhook is sent twice. */
  duplicateWebhooks: boolean;
  /** When the payment page sends the charge.success webhook: before sending the customer back (and waiting for the answer), after, or never. */
  webhookTiming: 'before-return' | 'after-return' | 'never';
  /** The status a new refund is made in. Default `pending`, as the documented example. */
  refundStatusAtCreate: FakeRefundStatus;
  /** Paystack writes a merchant_note of its own on every new refund, whatever was sent (an assumption to test against, not documented behaviour). */
  refundNotesReplaced: boolean;
  /** What the list calls report otherwise than the fake's own records. */
  listings: ListingDisagreements;
}

export type RouteName =
  | 'bank_resolve'
  | 'bank_list'
  | 'transferrecipient'
  | 'transfer'
  | 'transfer_verify'
  | 'transaction_initialize'
  | 'transaction_verify'
  | 'refund_create'
  | 'refund_list'
  | 'refund_fetch'
  | 'refund_retry'
  | 'transaction_list'
  | 'transfer_list'
  | 'settlement_list';

export interface FakePaystack {
  url: string;
  secretKey: string;
  accounts: Map<string, FakeAccount>;
  recipients: Map<string, { recipientCode: string; bankCode: string; accountNumber: string; name: string }>;
  transfers: Map<string, FakeTransfer>;
  transactions: Map<string, FakeTransaction>;
  /** By Paystack's refund id. */
  refunds: Map<number, FakeRefund>;
  /** List Settlements' settlements: none until a test adds one. */
  settlements: FakeSettlement[];
  /** List Banks, by Paystack's bank code; seeded with a few Nigerian banks. */
  banks: Map<string, FakeBank>;
  /** Every API call, by route name, in order. */
  calls: RouteName[];
  faults: Faults;
  /** Where webhooks are sent; set once the service under test listens. */
  webhookUrl: string | undefined;
  addAccount(account: FakeAccount): void;
  /** A transaction paid already, as if its customer had paid on the payment page; no webhook is sent. */
  addPaidTransaction(transaction: { reference: string; amount: number; currency?: string; email?: string; createdAt?: string }): FakeTransaction;
  /**
   * Moves a refund to `status`, as Paystack's processing would, and sends
   * its `refund.<status>` webhook when a webhookUrl is set and webhookTiming
   * is not `never`; resolves the receiver's status, or undefined when none was sent.
   */
  settleRefund(id: number, status: FakeRefundStatus): Promise<number | undefined>;
  /** Sends an event as Paystack does, signed over the exact bytes sent; resolves the receiver's status. */
  sendWebhook(event: string, data: Record<string, unknown>, options?: { secretKey?: string }): Promise<number>;
  /** The body of a transaction's or a transfer's webhook, as the fake sends it. */
  transactionEvent(reference: string): Record<string, unknown>;
  transferEvent(reference: string): Record<string, unknown>;
  /** The body of a refund's webhook, in the documented shape of the refund events. */
  refundEvent(id: number): Record<string, unknown>;
  close(): Promise<void>;
}
