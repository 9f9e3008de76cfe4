import ipaddr from 'ipaddr.js';

/**
 * Addresses webhooks are never sent to although ipaddr.js calls them
 * unicast. Everything ipaddr.js does not call unicast is refused too (private,
 * loopback, link-local, CGNAT, NAT64, 6to4, Teredo, reserved, …), and an
 * IPv4-mapped address is judged as the IPv4 address it holds.
 */
export const REFUSED_RANGES: ReadonlyArray<{ cidr: string; example: string; why: string }> = [
  { cidr: '::/96', example: '::7f00:1', why: 'an IPv4-compatible IPv6 address, deprecated, which embeds an IPv4 address (::127.0.0.1)' },
  { cidr: '168.63.129.16/32', example: '168.63.129.16', why: "a cloud platform's host address (Azure's wire server)" },
];

const PARSED = REFUSED_RANGES.map((row) => ({ ...row, range: ipaddr.parseCIDR(row.cidr) }));

/** Why `address` is in a row of the table, or undefined. */
export function refusedRangeOf(address: ipaddr.IPv4 | ipaddr.IPv6): string | undefined {
  for (const row of PARSED) {
    if (row.range[0].kind() === address.kind() && address.match(row.range)) return row.why;
  }
  return undefined;
}
