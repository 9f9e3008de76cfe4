import type { CliIo } from './cli-io';
import type { FlagValues } from './flags';

export const BASE_URL_OPTION = { 'base-url': { type: 'string' } } as const;

/** The service address of `curl` and `request`: --base-url, then PAYSIGN_BASE_URL, then the local default. */
export function baseUrlFrom(values: FlagValues, io: CliIo): string {
  return String(values['base-url'] ?? io.env.PAYSIGN_BASE_URL ?? 'http://localhost:3000').replace(/\/+$/, '');
}
