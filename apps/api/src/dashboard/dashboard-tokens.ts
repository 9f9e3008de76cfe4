import { randomBytes } from 'node:crypto';

export { newToken, sameSecret, TOKEN_PATTERN, tokenHash } from '../secrets/bearer-token';

/** A member's id: `mem_` and 24 letters and digits. */
export const newMemberId = (): string => `mem_${randomBytes(18).toString('base64url').replace(/[-_]/g, '0').slice(0, 24)}`;
