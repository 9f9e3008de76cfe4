import { createHash } from 'node:crypto';
import { Inject, Injectable } from '@nestjs/common';
import type { Payin } from '@paysign/contracts';
import { ApiException, storeUnavailable } from '../errors/api.exception';
import type { CreatePayinDto } from './create-payin.dto';
import { PayinRepository, type NewPayin, type StoredPayin } from './payin-repository.interface';

@Injectable()
export class PayinsService {
  constructor(@Inject(PayinRepository) private readonly payins: PayinRepository) {}

  /** Creates a payin, or replays the one with the same reference and body. */
  async create(merchantId: string, input: CreatePayinDto): Promise<{ created: boolean; payin: Payin }> {
    const fields: Omit<NewPayin, 'requestFingerprint'> = {
      merchantId,
      reference: input.reference,
      // Validated to at most 2 decimals, so rounding only removes float noise (0.29 * 100 = 28.999…).
      amountMinor: BigInt(Math.round(input.amount * 100)),
      currency: input.currency,
      customerEmail: input.customerEmail,
      customerName: input.customerName ?? null,
      gateway: input.gateway ?? null,
      narration: input.narration ?? null,
      notifyUrl: input.notifyUrl ?? null,
      redirectUrl: input.redirectUrl ?? null,
    };
    const requestFingerprint = fingerprint(fields);
    let result: { created: boolean; payin: StoredPayin };
    try {
      result = await this.payins.insertIfAbsent({ ...fields, requestFingerprint });
    } catch {
      throw storeUnavailable('payin store');
    }
    if (!result.created && result.payin.requestFingerprint !== requestFingerprint) {
      throw new ApiException('IDEMPOTENCY_CONFLICT', { reference: input.reference });
    }
    return { created: result.created, payin: toContract(result.payin) };
  }

  async get(merchantId: string, reference: string): Promise<Payin> {
    let payin: StoredPayin | undefined;
    try {
      payin = await this.payins.find(merchantId, reference);
    } catch {
      throw storeUnavailable('payin store');
    }
    if (!payin) throw new ApiException('PAYIN_NOT_FOUND', { reference });
    return toContract(payin);
  }
}

/** Equal for requests that mean the same payin: 1000.50 and 1000.5 are one amount. */
function fingerprint(fields: Omit<NewPayin, 'requestFingerprint'>): string {
  const normalised = [fields.amountMinor.toString(), fields.currency, fields.customerEmail, fields.customerName, fields.gateway, fields.narration, fields.notifyUrl, fields.redirectUrl];
  return createHash('sha256').update(JSON.stringify(normalised)).digest('hex');
}

function toContract(payin: StoredPayin): Payin {
  return {
    reference: payin.reference,
    merchantId: payin.merchantId,
    status: payin.status,
    amount: Number(payin.amountMinor) / 100,
    currency: payin.currency,
    customerEmail: payin.customerEmail,
    customerName: payin.customerName,
    gateway: payin.gateway,
    narration: payin.narration,
    notifyUrl: payin.notifyUrl,
    redirectUrl: payin.redirectUrl,
    createdAt: payin.createdAt.toISOString(),
  };
}
