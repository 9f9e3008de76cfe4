import { generateAuthenticationOptions, generateRegistrationOptions, verifyAuthenticationResponse, verifyRegistrationResponse } from '@simplewebauthn/server';
import type { AuthenticationResponseJSON, PublicKeyCredentialCreationOptionsJSON, PublicKeyCredentialRequestOptionsJSON, RegistrationResponseJSON } from '@simplewebauthn/server';
import type { StoredPasskey } from './member-store';

/** Where assertions must come from: the dashboard's origin and its host name as the relying party id. */
export interface RelyingParty {
  id: string;
  name: string;
  origin: string;
}

/** A browser has this long to answer a challenge. */
export const PASSKEY_TIMEOUT_MS = 120_000;

export function registrationOptions(rp: RelyingParty, member: { id: string; email: string }, existing: readonly StoredPasskey[]): Promise<PublicKeyCredentialCreationOptionsJSON> {
  return generateRegistrationOptions({
    rpName: rp.name,
    rpID: rp.id,
    userName: member.email,
    userID: new TextEncoder().encode(member.id),
    timeout: PASSKEY_TIMEOUT_MS,
    attestationType: 'none',
    excludeCredentials: existing.map((p) => ({ id: p.id, transports: p.transports })),
    authenticatorSelection: { residentKey: 'preferred', userVerification: 'required' },
  });
}

/** The new passkey, when the browser's answer verifies against the challenge it was given; undefined otherwise. */
export async function verifiedRegistration(rp: RelyingParty, response: unknown, expectedChallenge: string): Promise<Omit<StoredPasskey, 'memberId' | 'name' | 'createdAt' | 'lastUsedAt'> | undefined> {
  const verified = await verifyRegistrationResponse({ response: response as RegistrationResponseJSON, expectedChallenge, expectedOrigin: rp.origin, expectedRPID: rp.id, requireUserVerification: true }).catch(() => undefined);
  if (!verified?.verified) return undefined;
  const { credential } = verified.registrationInfo;
  return { id: credential.id, publicKey: Buffer.from(credential.publicKey).toString('base64url'), counter: credential.counter, transports: credential.transports ?? [] };
}

/** Assertion options for the member's passkeys; `challenge` binds what is approved, when given (approval-binding.ts). */
export function assertionOptions(rp: RelyingParty, passkeys: readonly StoredPasskey[], challenge?: Uint8Array): Promise<PublicKeyCredentialRequestOptionsJSON> {
  return generateAuthenticationOptions({
    rpID: rp.id,
    timeout: PASSKEY_TIMEOUT_MS,
    userVerification: 'required',
    allowCredentials: passkeys.map((p) => ({ id: p.id, transports: p.transports })),
    ...(challenge ? { challenge: challenge as Uint8Array<ArrayBuffer> } : {}),
  });
}

/**
 * The passkey and its new counter, when `response` is an assertion by one
 * of `passkeys` over `expectedChallenge`, from the dashboard's origin, with
 * the user verified; undefined otherwise.
 */
export async function verifiedAssertion(rp: RelyingParty, passkeys: readonly StoredPasskey[], response: unknown, expectedChallenge: string): Promise<{ passkey: StoredPasskey; newCounter: number } | undefined> {
  const id = typeof response === 'object' && response !== null ? (response as { id?: unknown }).id : undefined;
  const passkey = passkeys.find((p) => p.id === id);
  if (!passkey) return undefined;
  const verified = await verifyAuthenticationResponse({
    response: response as AuthenticationResponseJSON,
    expectedChallenge,
    expectedOrigin: rp.origin,
    expectedRPID: rp.id,
    requireUserVerification: true,
    credential: { id: passkey.id, publicKey: Buffer.from(passkey.publicKey, 'base64url'), counter: passkey.counter, transports: passkey.transports },
  }).catch(() => undefined);
  if (!verified?.verified) return undefined;
  return { passkey, newCounter: verified.authenticationInfo.newCounter };
}
