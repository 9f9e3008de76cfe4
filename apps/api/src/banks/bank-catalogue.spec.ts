import { BANK_CATALOGUE } from './bank-catalogue';

describe('the bank catalogue', () => {
  it('holds at least 30 institutions with unique codes and names', () => {
    expect(BANK_CATALOGUE.length).toBeGreaterThanOrEqual(30);
    expect(new Set(BANK_CATALOGUE.map((b) => b.code)).size).toBe(BANK_CATALOGUE.length);
    expect(new Set(BANK_CATALOGUE.map((b) => b.name)).size).toBe(BANK_CATALOGUE.length);
  });

  it.each([
    ['commercial', /^[0-9]{3}$/],
    ['merchant', /^[0-9]{3}$/],
    ['non-interest', /^[0-9]{3}$/],
    ['microfinance', /^[0-9]{5}$/],
    ['payment-service', /^[0-9]{6}$/],
    ['fintech', /^[0-9]{6}$/],
  ] as const)('gives %s institutions codes of the documented scheme', (category, pattern) => {
    const entries = BANK_CATALOGUE.filter((b) => b.category === category);
    expect(entries.length).toBeGreaterThan(0);
    for (const bank of entries) expect(bank.code).toMatch(pattern);
  });
});
