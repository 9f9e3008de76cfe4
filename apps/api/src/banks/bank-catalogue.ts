import type { Bank } from '@paysign/contracts';

/**
 * The institutions supported for payouts and account enquiry.
 *
 * Code scheme (the service's own `code`, used as `bankCode`):
 * - Deposit money banks (commercial, merchant, non-interest): the CBN 3-digit
 *   bank code. NUBAN applies, with institution code `000` + code.
 * - Microfinance banks: the CBN 5-digit other-financial-institution code of the
 *   2020 NUBAN revision. NUBAN applies, with institution code `9` + code.
 * - Payment service banks and wallets with neither: their 6-digit NIP
 *   institution code. Their account numbers are not NUBAN-checked.
 *
 * Sources: the CBN's list of licensed deposit money banks and its 3-digit bank
 * codes (as used in the NUBAN standard, revised 2020); the NIBSS NIP
 * institution code list; and a payment provider's public "List Banks"
 * API, which uses the same codes for the 5-digit microfinance banks and the
 * 99999x wallet codes. Re-check the list against NIBSS before each release:
 * licences change (Heritage Bank's was revoked in 2024, so it is absent).
 */
export const BANK_CATALOGUE: readonly Bank[] = [
  commercial('Access Bank', '044'),
  commercial('Citibank Nigeria', '023'),
  commercial('Ecobank Nigeria', '050'),
  commercial('Fidelity Bank', '070'),
  commercial('First Bank of Nigeria', '011'),
  commercial('First City Monument Bank', '214'),
  commercial('Globus Bank', '103'),
  commercial('Guaranty Trust Bank', '058'),
  commercial('Keystone Bank', '082'),
  commercial('Optimus Bank', '107'),
  commercial('Polaris Bank', '076'),
  commercial('PremiumTrust Bank', '105'),
  commercial('Providus Bank', '101'),
  commercial('Signature Bank', '106'),
  commercial('Stanbic IBTC Bank', '221'),
  commercial('Standard Chartered Bank Nigeria', '068'),
  commercial('Sterling Bank', '232'),
  commercial('SunTrust Bank', '100'),
  commercial('Titan Trust Bank', '102'),
  commercial('Union Bank of Nigeria', '032'),
  commercial('United Bank for Africa', '033'),
  commercial('Unity Bank', '215'),
  commercial('Wema Bank', '035'),
  commercial('Zenith Bank', '057'),
  { name: 'Jaiz Bank', code: '301', logo: null, category: 'non-interest' },
  { name: 'TAJBank', code: '302', logo: null, category: 'non-interest' },
  { name: 'Lotus Bank', code: '303', logo: null, category: 'non-interest' },
  { name: 'Coronation Merchant Bank', code: '559', logo: null, category: 'merchant' },
  { name: 'FSDH Merchant Bank', code: '501', logo: null, category: 'merchant' },
  { name: 'Rand Merchant Bank', code: '502', logo: null, category: 'merchant' },
  { name: 'Kuda Microfinance Bank', code: '50211', logo: null, category: 'microfinance' },
  { name: 'Moniepoint Microfinance Bank', code: '50515', logo: null, category: 'microfinance' },
  { name: 'FairMoney Microfinance Bank', code: '51318', logo: null, category: 'microfinance' },
  { name: 'Sparkle Microfinance Bank', code: '51310', logo: null, category: 'microfinance' },
  { name: 'Eyowo Microfinance Bank', code: '50126', logo: null, category: 'microfinance' },
  { name: '9 Payment Service Bank', code: '120001', logo: null, category: 'payment-service' },
  { name: 'HopePSB', code: '120002', logo: null, category: 'payment-service' },
  { name: 'MoMo Payment Service Bank', code: '120003', logo: null, category: 'payment-service' },
  { name: 'SmartCash Payment Service Bank', code: '120004', logo: null, category: 'payment-service' },
  { name: 'OPay', code: '999992', logo: null, category: 'fintech' },
  { name: 'PalmPay', code: '999991', logo: null, category: 'fintech' },
];

const BY_CODE = new Map(BANK_CATALOGUE.map((bank) => [bank.code, bank]));

export function findBank(code: string): Bank | undefined {
  return BY_CODE.get(code);
}

function commercial(name: string, code: string): Bank {
  return { name, code, logo: null, category: 'commercial' };
}
