import { HeadingAnchors, headingAnchor } from './heading-anchors';

describe('headingAnchor, as GitHub makes it', () => {
  it.each([
    ['an alert name', { given: 'PaysignLedgerBroken', want: 'paysignledgerbroken' }],
    ['words', { given: 'A compromised merchant key', want: 'a-compromised-merchant-key' }],
    ['punctuation dropped', { given: 'Runbook: a store is down', want: 'runbook-a-store-is-down' }],
    ['a numbered heading', { given: '8. Endpoints', want: '8-endpoints' }],
    ['underscores and hyphens kept', { given: 'Rotating CHECKOUT_TOKEN_SECRET, step-by-step', want: 'rotating-checkout_token_secret-step-by-step' }],
    ['an apostrophe and a comma', { given: "What PROCESSING means, and what never to do", want: 'what-processing-means-and-what-never-to-do' }],
    ['letters outside ASCII kept', { given: 'Naïve café', want: 'naïve-café' }],
  ])('%s', (_name, { given, want }) => {
    expect(headingAnchor(given)).toBe(want);
  });

  it('numbers a repeated heading as GitHub does', () => {
    const anchors = new HeadingAnchors();
    expect(['Checks', 'Checks', 'Checks-1', 'Checks'].map((text) => anchors.next(text))).toEqual(['checks', 'checks-1', 'checks-1-1', 'checks-2']);
  });
});
