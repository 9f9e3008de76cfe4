import { envValues, type Env } from './env-values';

/** The merchant dashboard's sessions, sign-in limits and links (apps/api/src/dashboard, docs/dashboard.md). */
export interface DashboardSettings {
  /** Where the built app is (apps/dashboard/dist, or `dashboard/` of a deployed folder). */
  assetsDir: string;
  /** A session unused this long ends. Default 1800 (30 minutes). */
  sessionIdleSeconds: number;
  /** A session ends this long after sign-in, however busy. Default 43200 (12 hours). */
  sessionAbsoluteSeconds: number;
  /** How long a second factor counts as fresh for keys, secrets and factors. Default 300. */
  freshFactorSeconds: number;
  /** How long a setup or invitation link stays usable. Default 259200 (3 days). */
  linkTtlSeconds: number;
  /** Failures in a row that lock an account for browsers that never signed in to it. Default 5. */
  signInMaxFailures: number;
  /** How long such a lock lasts. Default 900 (15 minutes). */
  lockoutSeconds: number;
  /** Failed sign-ins an address may make in an hour, whatever the accounts. Default 50. */
  addressFailuresPerHour: number;
  /** Where invitations are mailed from (`smtp://` or `smtps://`, with credentials if the server wants them); unset: they are only shown to the inviter. */
  smtpUrl: string | undefined;
  /** The From of those mails. */
  mailFrom: string;
  /** The most rows a batch file uploaded to the dashboard may hold; each is enquired. Default 200. */
  batchMaxRows: number;
}

const DEFAULT_MAIL_FROM = 'Paysign <no-reply@localhost>';

export function readDashboard(env: Env, problems: string[], paths: { assetsDir: string }): DashboardSettings {
  const { int, url } = envValues(env, problems);
  const settings: DashboardSettings = {
    assetsDir: env.DASHBOARD_ASSETS_DIR ?? paths.assetsDir,
    sessionIdleSeconds: int('DASHBOARD_SESSION_IDLE_SECONDS', 1800, 60, 86_400),
    sessionAbsoluteSeconds: int('DASHBOARD_SESSION_ABSOLUTE_SECONDS', 43_200, 300, 604_800),
    freshFactorSeconds: int('DASHBOARD_FRESH_FACTOR_SECONDS', 300, 30, 3600),
    linkTtlSeconds: int('DASHBOARD_LINK_TTL_SECONDS', 259_200, 300, 1_209_600),
    signInMaxFailures: int('DASHBOARD_SIGN_IN_MAX_FAILURES', 5, 3, 100),
    lockoutSeconds: int('DASHBOARD_LOCKOUT_SECONDS', 900, 60, 86_400),
    addressFailuresPerHour: int('DASHBOARD_ADDRESS_FAILURES_PER_HOUR', 50, 5, 10_000),
    smtpUrl: url('SMTP_URL', ['smtp:', 'smtps:']),
    mailFrom: env.SMTP_FROM ?? DEFAULT_MAIL_FROM,
    batchMaxRows: int('DASHBOARD_BATCH_MAX_ROWS', 200, 1, 1000),
  };
  if (!/^[^\r\n<>]{0,64}<[^\s@<>]+@[^\s@<>]+>$|^[^\s@<>]+@[^\s@<>]+$/.test(settings.mailFrom)) problems.push(`SMTP_FROM must be an address, or a name and an address in <>, such as "Paysign <no-reply@example.com>", got "${settings.mailFrom}"`);
  if (settings.sessionIdleSeconds > settings.sessionAbsoluteSeconds) {
    problems.push(`DASHBOARD_SESSION_IDLE_SECONDS (${settings.sessionIdleSeconds}) must not exceed DASHBOARD_SESSION_ABSOLUTE_SECONDS (${settings.sessionAbsoluteSeconds})`);
  }
  return settings;
}
