import type { SqlQueryable } from '../db/sql-client';
import { newToken, tokenHash } from '../secrets/bearer-token';

/** A one-time link that lets the merchant's first owner set a password and a second factor in the dashboard. */
export interface SetupLink {
  email: string;
  setupUrl: string;
  expiresAt: string;
}

/** What a link's email must look like: one address, no display name. */
export const OWNER_EMAIL = /^[^\s@<>()",;:]{1,64}@[A-Za-z0-9.-]{1,189}\.[A-Za-z]{2,}$/;

/**
 * Writes a setup link for `email` as the merchant's owner, revoking any
 * earlier one for that email, in the transaction `tx` of the change it
 * belongs to. The token is in the URL's fragment, which browsers never send:
 * no server log or proxy sees it. The table is the dashboard's (migration 27).
 */
export async function createOwnerSetupLink(tx: SqlQueryable, link: { merchantId: string; email: string; createdBy: string; origin: string; ttlSeconds: number; now: Date }): Promise<SetupLink> {
  const token = newToken();
  const expiresAt = new Date(link.now.getTime() + link.ttlSeconds * 1000);
  await tx.query("UPDATE dashboard_links SET revoked_at = $3 WHERE merchant_id = $1 AND lower(email) = lower($2) AND used_at IS NULL AND revoked_at IS NULL", [link.merchantId, link.email, link.now.toISOString()]);
  await tx.query("INSERT INTO dashboard_links (token_hash, kind, merchant_id, email, role, created_by, created_at, expires_at) VALUES ($1, 'setup', $2, $3, 'owner', $4, $5, $6)", [
    tokenHash(token),
    link.merchantId,
    link.email,
    link.createdBy,
    link.now.toISOString(),
    expiresAt.toISOString(),
  ]);
  return { email: link.email, setupUrl: `${link.origin}/payment/dashboard/welcome#${token}`, expiresAt: expiresAt.toISOString() };
}
