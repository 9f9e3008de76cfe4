import { ContractValidator } from './contract-validator';

const validator = new ContractValidator();
const BANK = { name: 'Access Bank', code: '044', logo: null, category: 'commercial' };
const webhookPayload = (): Record<string, unknown> => {
  const example = validator.examples().find((e) => e.schemaPointer.startsWith('/webhooks/payin.successful/'));
  return structuredClone(example?.value ?? {}) as Record<string, unknown>;
};

describe('ContractValidator', () => {
  it.each<[string, { given: () => string[]; want: string[] }]>([
    [
      'a property the schema does not have, by name and with the rule that refuses it',
      {
        given: () => validator.validateResponse({ method: 'GET', path: '/payment/merchant-api/banks', status: 200, body: [{ ...BANK, memo: 'x' }] }),
        want: ['/0/memo is not a property of the schema (additionalProperties: false at #/components/schemas/Bank/additionalProperties)'],
      },
    ],
    [
      'a required property that is missing, by name',
      {
        given: () => validator.validateResponse({ method: 'GET', path: '/payment/merchant-api/banks', status: 200, body: [{ ...BANK, logo: undefined }] }),
        want: ['/0/logo is required and missing (at #/components/schemas/Bank/required)'],
      },
    ],
    [
      'a value outside its enum, with the values allowed',
      {
        given: () => validator.validateResponse({ method: 'GET', path: '/payment/merchant-api/banks', status: 200, body: [{ ...BANK, category: 'cooperative' }] }),
        want: [expect.stringMatching(/^\/0\/category must be one of \["commercial",.*\] \(at #\/components\/schemas\/Bank\/properties\/category\/enum\)$/) as unknown as string],
      },
    ],
    ['a webhook payload that conforms', { given: () => validator.validateWebhook({ name: 'payin.successful', body: webhookPayload() }), want: [] }],
    [
      'a webhook payload whose field was renamed',
      {
        given: () => {
          const { timestamp, ...rest } = webhookPayload();
          return validator.validateWebhook({ name: 'payin.successful', body: { ...rest, occurredAt: timestamp } });
        },
        want: [
          '/timestamp is required and missing (at #/components/schemas/PayinSuccessfulEvent/required)',
          '/occurredAt is not a property of the schema (additionalProperties: false at #/components/schemas/PayinSuccessfulEvent/additionalProperties)',
        ],
      },
    ],
    ['a webhook the contract does not have', { given: () => validator.validateWebhook({ name: 'payin.refunded', body: {} }), want: ['payin.refunded is not a webhook of the contract'] }],
  ])('names %s', (_name, { given, want }) => {
    expect(given()).toEqual(want);
  });

  it('lists every webhook of the contract', () => {
    expect(validator.webhookNames()).toEqual(expect.arrayContaining(['payin.successful', 'payout.successful', 'payout_batch.completed']));
  });
});
