// The webhook endpoint schemas state some rules twice, for reasons the
// contract gives: the endpoint with its secret repeats the endpoint's fields
// (a closed schema cannot be extended with allOf), and the request's list of
// event types is a comma-separated string (a signed body is flat) whose
// pattern must take every event type. These tests hold each second statement
// to the first, and the examples' fingerprints to their secrets.
import { createHash } from 'node:crypto';
import { SCHEMAS } from './generated/schemas';
import { ContractValidator } from './testing';

const validator = new ContractValidator();
const SELECTION = '/components/schemas/WebhookEventSelection';
const fingerprint = (secret: string) => createHash('sha256').update(secret, 'utf8').digest('hex').slice(0, 12);

describe('the webhook endpoint schemas', () => {
  it('answer create and roll-secret with exactly the endpoint and its secret', () => {
    const { properties: withSecret, required: requiredWithSecret } = SCHEMAS.WebhookEndpointWithSecret;
    const { properties: endpoint, required } = SCHEMAS.WebhookEndpoint;
    const { secret, ...rest } = withSecret;
    expect(secret).toEqual({ $ref: '#/components/schemas/WebhookSecret' });
    expect(rest).toEqual(endpoint);
    expect([...requiredWithSecret].sort()).toEqual([...required, 'secret'].sort());
  });

  it('never let an endpoint read back carry a secret', () => {
    const example = validator.examples().find((e) => e.name === 'POST /payment/api/webhook-endpoints 201 example "created"');
    expect(validator.validateAt('/components/schemas/WebhookEndpoint', example?.value)).toEqual([
      '/secret is not a property of the schema (additionalProperties: false at #/components/schemas/WebhookEndpoint/additionalProperties)',
    ]);
  });

  it.each(validator.examples().filter((e) => e.schemaPointer.includes('webhook-endpoints') && (e.value as { secret?: unknown }).secret !== undefined).map((e) => [e.name, e.value] as const))(
    '%s shows the fingerprint of its secret as the newest',
    (_name, value) => {
      const { secret, secrets } = value as { secret: string; secrets: Array<{ fingerprint: string; expiresAt: string | null }> };
      expect(secrets[0]).toMatchObject({ fingerprint: fingerprint(secret), expiresAt: null });
    },
  );

  it('have an event type grammar that every event type of the contract follows', () => {
    const grammar = /^[a-z_]+\.[a-z_]+$/;
    expect(SCHEMAS.WebhookEventType.enum.filter((type) => !grammar.test(type))).toEqual([]);
  });

  it.each<[string, { given: string; valid: boolean }]>([
    ['takes one type', { given: 'payin.successful', valid: true }],
    ['takes types separated by commas', { given: 'payin.successful,refund.failed,payout_batch.completed', valid: true }],
    ['takes * alone, for every type', { given: '*', valid: true }],
    ['takes 64 types', { given: Array.from({ length: 64 }, () => 'payin.successful').join(','), valid: true }],
    ['refuses 65 types', { given: Array.from({ length: 65 }, () => 'payin.successful').join(','), valid: false }],
    ['refuses a space after a comma', { given: 'payin.successful, refund.failed', valid: false }],
    ['refuses a trailing comma', { given: 'payin.successful,', valid: false }],
    ['refuses * beside a type', { given: '*,payin.successful', valid: false }],
    ['refuses a type without its object', { given: 'successful', valid: false }],
    ['refuses nothing at all', { given: '', valid: false }],
  ])('WebhookEventSelection %s', (_name, { given, valid }) => {
    expect(validator.validateAt(SELECTION, given).length === 0).toBe(valid);
  });
});
