import type { Env } from './env-values';

/** Whether the service runs as the public sandbox or with real merchants and money; each section refuses what production must not run on. */
export type ServiceMode = 'sandbox' | 'production';

/** PAYSIGN_MODE, sandbox by default. */
export function readServiceMode(env: Env, problems: string[]): ServiceMode {
  const mode = (env.PAYSIGN_MODE ?? 'sandbox') as ServiceMode;
  if (mode !== 'sandbox' && mode !== 'production') problems.push(`PAYSIGN_MODE must be "sandbox" or "production", got "${env.PAYSIGN_MODE}"`);
  return mode;
}
