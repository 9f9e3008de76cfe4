// Receivers and their circuits: which receiver an event goes to, and what a run of attempts' outcomes does to its circuit.

/** A receiver is a notifyUrl's origin (scheme, host and port): what one circuit and one share of slots are kept for. One pattern, read the same by PostgreSQL and JavaScript. */
export const RECEIVER_PATTERN = '^[^:/?#]+://[^/?#]+';
const RECEIVER = new RegExp(RECEIVER_PATTERN);

/** The receiver of a notifyUrl, X. */
export const receiverOfUrl = (notifyUrl: string): string => RECEIVER.exec(notifyUrl)?.[0] ?? '';

/** Receivers' outcomes in the order they came, folded into what each receiver's circuit row becomes. */
export interface FoldedOutcomes {
  /** Answered last: no failures in a row. */
  closed: string[];
  /** Answered, then failed this many times in a row. */
  restarted: Map<string, number>;
  /** Failed this many times, with no answer among them: added to the failures before. */
  counted: Map<string, number>;
}

/** What a series of outcomes, applied one at a time, leaves each receiver's circuit: the same, written at once. */
export function foldReceiverOutcomes(outcomes: Array<{ receiver: string; answered: boolean }>): FoldedOutcomes {
  const state = new Map<string, { answeredOnce: boolean; failuresSince: number }>();
  for (const { receiver, answered } of outcomes) {
    const current = state.get(receiver) ?? { answeredOnce: false, failuresSince: 0 };
    state.set(receiver, answered ? { answeredOnce: true, failuresSince: 0 } : { ...current, failuresSince: current.failuresSince + 1 });
  }
  const folded: FoldedOutcomes = { closed: [], restarted: new Map(), counted: new Map() };
  for (const [receiver, { answeredOnce, failuresSince }] of state) {
    if (failuresSince === 0) folded.closed.push(receiver);
    else if (answeredOnce) folded.restarted.set(receiver, failuresSince);
    else folded.counted.set(receiver, failuresSince);
  }
  return folded;
}
