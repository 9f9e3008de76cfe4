import { BANK_CATALOGUE } from '../../banks/bank-catalogue';

/**
 * Our bank codes (banks/bank-catalogue.ts: CBN 3-digit codes, CBN 5-digit
 * microfinance codes, NIP 6-digit codes) to the codes Paystack's API takes,
 * as its List Banks endpoint gives them (GET /bank?country=nigeria,
 * https://paystack.com/docs/api/miscellaneous/#bank). Most commercial banks
 * share the CBN code. The fintechs differ from their NIP institution codes
 * (OPay is 100004 on NIP, PalmPay 100033, Kuda 090267, Moniepoint 090405):
 * Paystack gives them codes of its own, which our catalogue adopted, so the
 * table maps them to themselves. A test holds every catalogued bank to an
 * entry here, so a bank added to the catalogue without its Paystack code
 * fails CI rather than an enquiry.
 */
export const PAYSTACK_BANK_CODES: Readonly<Record<string, string>> = {
  '044': '044', // Access Bank
  '023': '023', // Citibank Nigeria
  '050': '050', // Ecobank Nigeria
  '070': '070', // Fidelity Bank
  '011': '011', // First Bank of Nigeria
  '214': '214', // First City Monument Bank
  '103': '00103', // Globus Bank: Paystack's code carries two leading zeros
  '058': '058', // Guaranty Trust Bank
  '082': '082', // Keystone Bank
  '107': '107', // Optimus Bank
  '076': '076', // Polaris Bank
  '105': '105', // PremiumTrust Bank
  '101': '101', // Providus Bank
  '106': '106', // Signature Bank
  '221': '221', // Stanbic IBTC Bank
  '068': '068', // Standard Chartered Bank
  '232': '232', // Sterling Bank
  '100': '100', // SunTrust Bank
  '102': '102', // Titan Trust Bank
  '032': '032', // Union Bank of Nigeria
  '033': '033', // United Bank for Africa
  '215': '215', // Unity Bank
  '035': '035', // Wema Bank
  '057': '057', // Zenith Bank
  '301': '301', // Jaiz Bank
  '302': '302', // TAJBank
  '303': '303', // Lotus Bank
  '559': '559', // Coronation Merchant Bank
  '501': '501', // FSDH Merchant Bank
  '502': '502', // Rand Merchant Bank
  '50211': '50211', // Kuda Microfinance Bank
  '50515': '50515', // Moniepoint Microfinance Bank
  '51318': '51318', // FairMoney Microfinance Bank
  '51310': '51310', // Sparkle Microfinance Bank
  '50126': '50126', // Eyowo Microfinance Bank
  '120001': '120001', // 9 Payment Service Bank
  '120002': '120002', // HopePSB
  '120003': '120003', // MoMo Payment Service Bank
  '120004': '120004', // SmartCash Payment Service Bank
  '999992': '999992', // OPay
  '999991': '999991', // PalmPay
};

/** Paystack's code for one of our banks; undefined for a bank it does not list. */
export function paystackBankCode(bankCode: string): string | undefined {
  return Object.hasOwn(PAYSTACK_BANK_CODES, bankCode) ? PAYSTACK_BANK_CODES[bankCode] : undefined;
}

/** The catalogued banks with no Paystack code: empty, or the table is behind the catalogue. */
export function banksWithoutPaystackCode(): string[] {
  return BANK_CATALOGUE.filter((bank) => paystackBankCode(bank.code) === undefined).map((bank) => bank.code);
}
