/** The three forms of an HTTP date (IMF-fixdate, RFC 850, asctime): a day name first, a time of day, then GMT or the year. */
const HTTP_DATE_SHAPE = /^[A-Za-z]{3}.* [0-9]{2}:[0-9]{2}:[0-9]{2}( GMT|$| [0-9]{4}$)/;

/**
 * A Retry-After value in whole seconds from `nowMs`: delay-seconds, or an
 * HTTP date (RFC 9110 §10.2.3); undefined when absent or unreadable. The
 * service reads it from webhook receivers, the SDK from the service.
 */
export function parseRetryAfter(value: string | null | undefined, nowMs: number): number | undefined {
  if (value === null || value === undefined) return undefined;
  const trimmed = value.trim();
  if (/^[0-9]+$/.test(trimmed)) return Number(trimmed);
  // Date.parse alone would read "-5" or "1.5" as dates.
  if (!HTTP_DATE_SHAPE.test(trimmed)) return undefined;
  const at = Date.parse(trimmed);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - nowMs) / 1000));
}
