import {
  startAuthentication,
  startRegistration,
  type PublicKeyCredentialCreationOptionsJSON,
  type PublicKeyCredentialRequestOptionsJSON,
} from '@simplewebauthn/browser';
import type { DashboardComponents } from '@paysign/contracts';

// The contract types WebAuthn's JSON loosely (an object with a challenge, an
// object answered); @simplewebauthn/browser types it exactly. These two
// functions are the only crossings between the two.

/** The browser's answer as the contract's request bodies carry it. */
export type PasskeyJson = DashboardComponents['schemas']['PasskeyResponse']['response'];

/** Asks the browser for an assertion over options the service issued. */
export async function assertWithPasskey(options: { challenge: string }): Promise<PasskeyJson> {
  const response = await startAuthentication({ optionsJSON: options as unknown as PublicKeyCredentialRequestOptionsJSON });
  return response as unknown as PasskeyJson;
}

/** Asks the browser to create a passkey with options the service issued. */
export async function createPasskey(options: { challenge: string }): Promise<PasskeyJson> {
  const response = await startRegistration({ optionsJSON: options as unknown as PublicKeyCredentialCreationOptionsJSON });
  return response as unknown as PasskeyJson;
}
