const HOUR_S = 3600;
const DAY_S = 86_400;
/** Past this many seconds of PROCESSING, a payout or refund needs an operator's attention, and is checked daily. */
export const ATTENTION_AFTER_S = 72 * HOUR_S;

/**
 * When the status check after `checksDone` checks is due, in seconds after
 * the object (payout or refund) became PROCESSING: the configured steps first (60, 300 and
 * 1800 s by default), then every hour up to 72 hours, then every day.
 */
export function statusCheckOffsetSeconds(checksDone: number, steps: readonly number[]): number {
  if (checksDone < steps.length) return steps[checksDone] as number;
  let offset = steps[steps.length - 1] ?? 0;
  for (let check = steps.length; check <= checksDone; check++) offset += offset + HOUR_S <= ATTENTION_AFTER_S ? HOUR_S : DAY_S;
  return offset;
}
