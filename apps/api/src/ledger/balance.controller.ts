import { Controller, Get, Query, Req } from '@nestjs/common';
import type { Balance, BalanceEntryList } from '@paysign/contracts';
import type { FastifyRequest } from 'fastify';
import { pageOf } from '../http/listing-query';
import { amountOf } from '../money/money';
import { encodeEntriesCursor, parseBalanceQuery, parseEntriesQuery } from './balance-query';
import { Ledger, type BalanceEntry } from './ledger';

@Controller('api/balance')
export class BalanceController {
  constructor(private readonly ledger: Ledger) {}

  @Get()
  async get(@Query() query: Record<string, unknown>, @Req() request: FastifyRequest): Promise<Balance> {
    const merchant = request.merchant as NonNullable<FastifyRequest['merchant']>;
    const { currency } = parseBalanceQuery(query);
    const balance = await this.ledger.balanceOf(merchant.merchantId, currency);
    const amount = (minor: bigint) => amountOf({ minor, currency });
    return { currency, available: amount(balance.availableMinor), pending: amount(balance.pendingMinor), held: amount(balance.heldMinor) };
  }

  @Get('entries')
  async entries(@Query() query: Record<string, unknown>, @Req() request: FastifyRequest): Promise<BalanceEntryList> {
    const merchant = request.merchant as NonNullable<FastifyRequest['merchant']>;
    const listing = parseEntriesQuery(query);
    const rows = await this.ledger.entriesOf({ merchantId: merchant.merchantId, currency: listing.currency, afterId: listing.afterId, limit: listing.limit + 1 });
    return pageOf(rows, listing.limit, entryToContract, (last) => encodeEntriesCursor(last.id, listing.currency));
  }
}

export function entryToContract(entry: BalanceEntry): BalanceEntryList['data'][number] {
  return {
    id: entry.id,
    type: entry.type,
    balance: entry.balance,
    amount: amountOf({ minor: entry.amountMinor, currency: entry.currency }),
    currency: entry.currency as BalanceEntryList['data'][number]['currency'],
    objectType: entry.objectType,
    reference: entry.reference,
    createdAt: entry.createdAt.toISOString(),
  };
}
