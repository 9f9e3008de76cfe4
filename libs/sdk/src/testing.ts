// Test support for merchants: the protocol's test vectors, to check a client in any
// language, and signed webhooks, to test a receiver.
export { SIGNING_VECTORS, NOT_SIGNABLE_VECTORS } from '@paysign/signing/testing';
export type { SigningVector, NotSignableVector } from '@paysign/signing/testing';
export { signTestWebhook } from './webhooks';
export type { TestWebhook } from './webhooks';
