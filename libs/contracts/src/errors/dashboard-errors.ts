import type { ErrorDefinition } from './error-registry';

/**
 * The errors of the merchant dashboard's API (openapi/dashboard-api.yaml):
 * its sessions, sign-in, roles, links and approvals. The registry
 * (error-registry.ts) spreads them in place.
 */
export const DASHBOARD_ERRORS = {
  DASHBOARD_UNAUTHENTICATED: {
    status: 401,
    type: 'authentication',
    retryable: false,
    message: 'No dashboard session, or it ended (signed out, idle for {idle}, or past its absolute limit). Sign in again at /payment/dashboard/sign-in.',
  },
  DASHBOARD_SIGN_IN_FAILED: {
    status: 401,
    type: 'authentication',
    retryable: false,
    message: '{what} is not right. Check it and try again; after {maxFailures} failures in a row the account waits {lockoutMinutes} minutes, except from a browser that signed in to it before.',
  },
  DASHBOARD_SIGN_IN_LIMITED: {
    status: 429,
    type: 'rate_limited',
    retryable: true,
    message: 'Too many failed sign-ins {scope}. Try again in {retryAfterSeconds} s; a browser that signed in to this account before is not held by its lockout.',
  },
  DASHBOARD_CSRF_REFUSED: {
    status: 403,
    type: 'permission',
    retryable: false,
    message: "This call changes something, and its X-CSRF-Token header does not match the session's token. Send the csrfToken of GET /payment/dashboard/api/session in X-CSRF-Token.",
  },
  DASHBOARD_ROLE_FORBIDDEN: {
    status: 403,
    type: 'permission',
    retryable: false,
    message: 'Your role, {role}, does not allow this; it needs {roles}. Ask an owner or admin of your team to change your role.',
  },
  DASHBOARD_FRESH_FACTOR_REQUIRED: {
    status: 403,
    type: 'permission',
    retryable: false,
    message: 'This needs a second factor given in the last {seconds} s. Confirm with your passkey (POST /sign-in/passkey) or a TOTP code (POST /sign-in/totp), then repeat the call.',
  },
  DASHBOARD_STAGE_REFUSED: {
    status: 403,
    type: 'permission',
    retryable: false,
    message: 'The session is at stage {stage}: {next}.',
  },
  DASHBOARD_LINK_INVALID: {
    status: 404,
    type: 'not_found',
    retryable: false,
    message: 'This link is unknown, already used or expired. Ask whoever sent it for a new one: an owner or admin invites again, or the operator runs merchants setup-link.',
  },
  DASHBOARD_NOT_FOUND: {
    status: 404,
    type: 'not_found',
    retryable: false,
    message: 'No {what} {id} exists for your merchant.',
  },
  DASHBOARD_CONFLICT: {
    status: 409,
    type: 'conflict',
    retryable: false,
    message: '{why}',
  },
  DASHBOARD_FOUR_EYES: {
    status: 403,
    type: 'permission',
    retryable: false,
    message: '{subject} came from {key}: you, or a key you made. Another member approves it (four eyes): ask another owner, admin or approver.',
  },
} as const satisfies Record<string, ErrorDefinition>;
