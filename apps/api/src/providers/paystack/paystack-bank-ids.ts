import type { ProviderCaller } from '../../upstream/upstream-client';
import type { PaystackApi } from './paystack-api';
import { paystackBankCode } from './paystack-banks';

/** The most pages of List Banks read for one lookup: Nigeria has a few hundred banks, 100 a page. */
const MAX_BANK_PAGES = 10;

/**
 * Paystack's own id of a bank (the `bank_id` a refund retry takes), for one
 * of our bank codes: the code is mapped to Paystack's (paystack-banks.ts),
 * and the id read from List Banks, whose entries carry both. The list is
 * read once and kept; a code it lacks drops it, so that the next lookup
 * reads it again and finds a bank Paystack has added since.
 */
export class PaystackBankIds {
  private ids: Promise<Map<string, number>> | undefined;

  constructor(private readonly api: PaystackApi) {}

  /** Paystack's id of the bank; undefined for a bank Paystack does not list. Rejects when List Banks gives no answer. */
  async idOf(bankCode: string, caller: ProviderCaller): Promise<number | undefined> {
    const code = paystackBankCode(bankCode);
    if (code === undefined) return undefined;
    this.ids ??= this.load(caller);
    const loading = this.ids;
    try {
      const id = (await loading).get(code);
      if (id === undefined && this.ids === loading) this.ids = undefined;
      return id;
    } catch (error) {
      if (this.ids === loading) this.ids = undefined;
      throw error;
    }
  }

  private async load(caller: ProviderCaller): Promise<Map<string, number>> {
    const ids = new Map<string, number>();
    let cursor: string | null = null;
    for (let page = 0; page < MAX_BANK_PAGES; page++) {
      const listed = await this.api.listBanks(cursor, caller);
      for (const bank of listed.banks) if (!ids.has(bank.code)) ids.set(bank.code, bank.id);
      cursor = listed.next;
      if (cursor === null) break;
    }
    return ids;
  }
}
