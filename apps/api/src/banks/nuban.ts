// NUBAN check digit, CBN revised standard (2020). The institution code is six
// digits: `000` + a bank's 3-digit CBN code, or `9` + an other financial
// institution's 5-digit code. For 3-digit banks this equals the original
// 12-digit algorithm, since the leading zeros weigh nothing.

const WEIGHTS = [3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3, 3, 7, 3] as const;

/** The 6-digit NUBAN institution code of a bank code, or undefined when NUBAN does not apply. */
export function nubanInstitutionCode(bankCode: string): string | undefined {
  if (/^[0-9]{3}$/.test(bankCode)) return `000${bankCode}`;
  if (/^[0-9]{5}$/.test(bankCode)) return `9${bankCode}`;
  return undefined;
}

/** The check digit for a 6-digit institution code and a 9-digit serial number. */
export function nubanCheckDigit(institutionCode: string, serial: string): number {
  const digits = `${institutionCode}${serial}`;
  if (!/^[0-9]{15}$/.test(digits)) throw new RangeError('expected a 6-digit institution code and a 9-digit serial');
  let sum = 0;
  for (let i = 0; i < WEIGHTS.length; i++) sum += Number(digits[i]) * (WEIGHTS[i] ?? 0);
  return (10 - (sum % 10)) % 10;
}

export type NubanCheck = 'valid' | 'invalid' | 'not-applicable';

/** Checks a 10-digit account number against a bank code. */
export function checkNuban(bankCode: string, accountNumber: string): NubanCheck {
  const institution = nubanInstitutionCode(bankCode);
  if (institution === undefined) return 'not-applicable';
  if (!/^[0-9]{10}$/.test(accountNumber)) return 'invalid';
  return nubanCheckDigit(institution, accountNumber.slice(0, 9)) === Number(accountNumber[9]) ? 'valid' : 'invalid';
}

/** Builds a valid NUBAN from a serial number; used to make sandbox fixtures. */
export function makeNuban(bankCode: string, serial: string): string {
  const institution = nubanInstitutionCode(bankCode);
  if (institution === undefined) throw new RangeError(`NUBAN does not apply to bank code ${bankCode}`);
  return `${serial}${nubanCheckDigit(institution, serial)}`;
}
