import { randomBytes, timingSafeEqual } from 'node:crypto';
import { Controller, Get, Inject, Param, Post, Req, Res } from '@nestjs/common';
import { SCHEMAS, type CheckoutSubmission, type PayinChannel } from '@paysign/contracts';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { AppConfig } from '../config/app-config';
import { AppConfigToken } from '../config/app-config.token';
import { Clock } from '../config/clock';
import type { CardField, CheckoutMethod, PaymentAttempt } from '../providers/ports/payment-gateway.port';
import { ProviderRegistry } from '../providers/provider-registry';
import { MerchantRegistry } from '../merchants/merchant-registry';
import type { NewPayinAttempt, StoredPayin } from '../payins/payin-repository.interface';
import { isFinal } from '../payins/payin-states';
import { PayinsService } from '../payins/payins.service';
import { ProviderPayments } from '../payins/provider-payments';
import { CheckoutLinks } from '../payins/checkout-links';
import { isPlainAsciiUrl } from '../http/merchant-url';
import { ROUTES } from '../http/routes';
import { CheckoutRoute } from './checkout-route';
import { hashCheckoutToken, isCheckoutTokenShaped } from '../payins/checkout-tokens';
import { checkoutCsp, declineNotice, formatAmount, renderCheckoutPage, renderContinuePage, renderMessagePage, renderOutcomePage, type Brand, type PayinSummary } from './checkout-page';

const CSRF_COOKIE = 'paysign_checkout_csrf';
/** The form's actions and fields are the contract's CheckoutSubmission. */
const ACTION_CHANNEL: Readonly<Record<string, PayinChannel | 'cancel'>> = {
  pay_card: 'card',
  confirm_transfer: 'bank_transfer',
  confirm_ussd: 'ussd',
  cancel: 'cancel',
} satisfies Record<CheckoutSubmission['action'], PayinChannel | 'cancel'>;
const FORM_FIELDS: ReadonlySet<string> = new Set(Object.keys(SCHEMAS.CheckoutSubmission.properties));

/** What a page shown again carries: why, what the customer typed, and which method they used. */
interface CheckoutPageExtra {
  notice?: string;
  method?: PayinChannel;
  errors?: Partial<Record<CardField, string>>;
  values?: { cardNumber?: string; cardExpiry?: string };
}

interface PageAnswer {
  status: number;
  html: string;
  /** The merchant's look the page carries: its style and logo are allowed by the page's CSP. */
  brand?: Brand;
  /** Where the page's forms may be sent on to: the merchant's redirectUrl, where the 303 after payment goes, and a hosted gateway's page. */
  formTargets?: ReadonlyArray<string | null>;
}

/**
 * The hosted checkout: GET shows the page, POST pays or cancels, then sends
 * the customer on with a 303 (post/redirect/get). The token in the path is
 * the capability. The per-page CSRF pair (a random SameSite=Strict cookie,
 * and its HMAC for this checkout in the form) and the browser's
 * Sec-Fetch-Site make sure a submission came from this page.
 */
@Controller('checkout')
export class CheckoutController {
  private readonly secureCookie: boolean;

  constructor(
    private readonly payins: PayinsService,
    private readonly providerPayments: ProviderPayments,
    private readonly providers: ProviderRegistry,
    private readonly merchants: MerchantRegistry,
    private readonly links: CheckoutLinks,
    @Inject(AppConfigToken) private readonly config: AppConfig,
    @Inject(Clock) private readonly clock: Clock,
  ) {
    this.secureCookie = config.mode === 'production' || (config.publicBaseUrl?.startsWith('https:') ?? false);
  }

  @Get(':token')
  @CheckoutRoute()
  async show(@Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const payin = await this.payinOf(token);
    if (!payin) return this.send(reply, notFound());
    if (isFinal(payin.status)) return this.send(reply, this.outcome(payin));
    // Started at a hosted gateway before the page is shown, so that its page is among the places the page's forms may lead.
    const started = await this.providerPayments.start(payin);
    const asked = (request.query as Record<string, unknown>).method;
    if (asked === undefined) return this.send(reply, this.checkoutPage(reply, token, started, 200));
    const offered = this.channelsOf(started);
    if (typeof asked !== 'string' || !(offered as readonly string[]).includes(asked)) {
      return this.send(reply, this.checkoutPage(reply, token, started, 400, { notice: 'That payment method is not offered for this payment. Choose one of the methods below.' }));
    }
    return this.send(reply, this.checkoutPage(reply, token, started, 200, { method: asked as PayinChannel }));
  }

  @Post(':token')
  @CheckoutRoute()
  async submit(@Param('token') token: string, @Req() request: FastifyRequest, @Res() reply: FastifyReply): Promise<void> {
    const payin = await this.payinOf(token);
    if (!payin) return this.send(reply, notFound());
    if (payin.status === 'ABANDONED') return this.send(reply, this.outcome(payin));
    // Before anything is charged: a merchant removed or revoked takes no payment, and a final payin no longer sends anyone to it.
    if (!this.merchants.merchantTakingPayments(payin.merchantId)) return this.send(reply, isFinal(payin.status) ? this.outcome(payin) : noLongerPayable());
    if (typeof request.body !== 'string') {
      return this.send(reply, { status: 415, html: renderMessagePage('Unsupported form', 'This page takes its own form only. Go back and submit the payment form again.') });
    }
    const form = new URLSearchParams(request.body);
    if (!sentFromThisPage(request) || !this.csrfMatches(request, form, token)) {
      const notice = 'This form had expired or was sent from another page, so nothing was charged. Check the details and submit again.';
      if (isFinal(payin.status)) return this.send(reply, this.outcome(payin));
      return this.send(reply, this.checkoutPage(reply, token, payin, 403, { notice }));
    }
    // A resubmission once the payin is final (a double click, the back button) changes nothing.
    if (isFinal(payin.status)) return this.finished(reply, token, payin);

    const fields = [...form.keys()];
    const action = form.get('action') ?? '';
    const channel = ACTION_CHANNEL[action];
    const offered = this.channelsOf(payin);
    if (fields.some((field) => !FORM_FIELDS.has(field)) || new Set(fields).size !== fields.length || !channel || (channel !== 'cancel' && !offered.includes(channel))) {
      return this.send(reply, this.checkoutPage(reply, token, payin, 400, { notice: 'The form was not sent as this page makes it. Choose a payment method below and submit it again.' }));
    }

    if (channel !== 'cancel' && this.providers.gatewayOf(payin)?.adapter.kind === 'hosted') return this.toProviderPage(reply, payin);
    const result = channel === 'cancel' ? await this.cancel(payin) : await this.pay(reply, token, payin, channel, form);
    if ('html' in result) return this.send(reply, result);
    if (result.changed) reply.request.log.info({ merchantId: payin.merchantId, reference: payin.reference, status: result.payin.status, attempts: result.payin.attempts.length }, 'payin changed at checkout');
    // Declined with attempts left: back to the page (post/redirect/get), which says why and offers the method again.
    if (result.payin.status === 'PENDING') return this.seeOther(reply, `${ROUTES.checkout(token)}?method=${result.payin.attempts.at(-1)?.channel ?? channel}`);
    try {
      return this.finished(reply, token, result.payin);
    } catch (error) {
      // The payment is recorded: the customer sees its outcome, never an error page saying nothing was charged.
      reply.request.log.error({ err: error instanceof Error ? { name: error.name, message: error.message } : String(error), reference: payin.reference }, 'checkout outcome shown instead of the redirect');
      return this.send(reply, this.outcome(result.payin));
    }
  }

  /**
   * Where a hosted gateway sends the customer back. The query string it adds
   * is ignored: the provider is asked for the payment's outcome, and only its
   * answer moves the payin. Then on to the merchant as after any payment, or,
   * while the provider has not confirmed it, a page saying so.
   */
  @Get(':token/return')
  @CheckoutRoute()
  async returned(@Param('token') token: string, @Res() reply: FastifyReply): Promise<void> {
    const found = await this.payinOf(token);
    if (!found) return this.send(reply, notFound());
    const payin = found.status === 'PENDING' ? await this.providerPayments.settle(found, 'return') : found;
    if (!isFinal(payin.status)) {
      const summary = this.summary(payin);
      return this.send(reply, { status: 200, brand: summary.brand, html: renderOutcomePage({ ...summary, status: payin.status, failureReason: null, continueUrl: null, checkAgainUrl: ROUTES.checkoutReturn(token) }) });
    }
    return this.finished(reply, token, payin);
  }

  /**
   * A hosted gateway's channel: on to the provider's page, starting the
   * payin there first if its start at create failed. Never once the payin
   * has expired: a payment made there after expiry is not credited.
   */
  private async toProviderPage(reply: FastifyReply, payin: StoredPayin): Promise<void> {
    if (payin.expiresAt.getTime() <= this.clock()) {
      return this.send(reply, { status: 410, html: renderMessagePage('This payment link has expired', 'It was not paid in time, and nothing was charged. Ask the merchant for a new payment link.') });
    }
    const started = await this.providerPayments.start(payin);
    if (started.providerPaymentUrl === null || !isPlainAsciiUrl(started.providerPaymentUrl)) {
      return this.send(reply, { status: 503, html: renderMessagePage('Payment unavailable', 'The payment provider cannot take this payment right now, and nothing was charged. Try again in a few minutes.') });
    }
    // Started only now: the page the form came from did not name the provider's origin in its CSP, so the browser would block a redirect there. A link is not a form.
    if (payin.providerPaymentUrl === null) {
      const provider = this.providerPayments.hostedGatewayOf(payin)?.gateway.displayName ?? 'the payment provider';
      const summary = this.summary(started);
      return this.send(reply, { status: 200, brand: summary.brand, html: renderContinuePage(summary, provider, started.providerPaymentUrl) });
    }
    void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    void reply.status(303).header('location', started.providerPaymentUrl).send();
  }

  /** The channels a payin may be paid by: those its provider of record offers for it; none while that provider is not configured here. */
  private channelsOf(payin: StoredPayin): PayinChannel[] {
    return this.providers.gatewayOf(payin)?.channels ?? [];
  }

  private async cancel(payin: StoredPayin): Promise<{ changed: boolean; payin: StoredPayin }> {
    const result = await this.payins.transition(payin, { to: 'CANCELLED', by: 'customer' });
    return { changed: result.moved, payin: result.payin };
  }

  /**
   * The customer's payment: the gateway's decision recorded as an attempt,
   * with the move it makes; or a page to show again, recording nothing (a
   * mistyped card is not an attempt).
   */
  private async pay(reply: FastifyReply, token: string, payin: StoredPayin, channel: PayinChannel, form: URLSearchParams): Promise<{ changed: boolean; payin: StoredPayin } | PageAnswer> {
    const payment: PaymentAttempt =
      channel === 'card' ? { channel, card: { number: form.get('cardNumber') ?? '', expiry: form.get('cardExpiry') ?? '', cvc: form.get('cardCvc') ?? '' } } : { channel };
    const adapter = this.providers.gatewayOf(payin)?.adapter;
    const decision = adapter?.kind === 'form' ? await adapter.attempt(payin, payment, new Date(this.clock())) : undefined;
    if (!decision) return { status: 503, html: renderMessagePage('Payment unavailable', 'This payment method cannot take payments right now. Try again later.') };
    if (decision.kind === 'invalid') {
      const values = { cardNumber: form.get('cardNumber') ?? '', cardExpiry: form.get('cardExpiry') ?? '' };
      return this.checkoutPage(reply, token, payin, 400, { errors: decision.errors, values, method: channel });
    }
    const attempt: Omit<NewPayinAttempt, 'attemptedAt'> =
      decision.kind === 'paid' ? { channel, outcome: 'succeeded', declineReason: null } : { channel, outcome: 'declined', declineReason: decision.reason };
    const result = await this.payins.attempt(payin, attempt);
    return { changed: result.recorded, payin: result.payin };
  }

  /** The payin of a checkout token. One started at a provider and past its expiry is settled with the provider first: paid there just in time, or abandoned. */
  private async payinOf(token: string): Promise<StoredPayin | undefined> {
    if (!isCheckoutTokenShaped(token)) return undefined;
    const payin = await this.payins.findByCheckoutTokenHash(hashCheckoutToken(token));
    if (payin?.status === 'PENDING' && payin.providerReference !== null && payin.expiresAt.getTime() <= this.clock()) return this.providerPayments.settle(payin, 'return');
    return payin;
  }

  /**
   * A final payin: on to the merchant's redirectUrl with the outcome, or back
   * to this page, which now shows it. The Location is the stored redirectUrl,
   * normalised to ASCII at creation; one stored before that which is not
   * plain ASCII gets the outcome page with a link instead, since Node refuses
   * such a header or sends it as raw bytes.
   */
  private finished(reply: FastifyReply, token: string, payin: StoredPayin): void {
    if (payin.status === 'ABANDONED') return this.send(reply, this.outcome(payin));
    const location = payin.redirectUrl ? withOutcome(payin.redirectUrl, payin) : ROUTES.checkout(token);
    if (!isPlainAsciiUrl(location)) return this.send(reply, this.outcome(payin));
    this.seeOther(reply, location);
  }

  private seeOther(reply: FastifyReply, location: string): void {
    void reply.header('cache-control', 'no-store').header('referrer-policy', 'no-referrer');
    void reply.status(303).header('location', location).send();
  }

  /** The outcome, with a link on to the merchant while it still takes payments. */
  private outcome(payin: StoredPayin): PageAnswer {
    const summary = this.summary(payin);
    const continueUrl = payin.redirectUrl && payin.status !== 'ABANDONED' && summary.merchantName !== null ? withOutcome(payin.redirectUrl, payin) : null;
    return { status: payin.status === 'ABANDONED' ? 410 : 200, brand: summary.brand, html: renderOutcomePage({ ...summary, status: payin.status, failureReason: payin.failureReason, continueUrl }) };
  }

  private checkoutPage(reply: FastifyReply, token: string, payin: StoredPayin, status: number, extra: CheckoutPageExtra = {}): PageAnswer {
    const merchant = this.merchants.merchantTakingPayments(payin.merchantId);
    if (!merchant) return noLongerPayable();
    const offered = this.channelsOf(payin);
    const adapter = this.providers.gatewayOf(payin)?.adapter;
    const methods = adapter ? offered.map((channel): CheckoutMethod => (adapter.kind === 'form' ? adapter.checkoutMethod(channel, payin) : { channel, hostedBy: adapter.displayName })) : [];
    if (methods.length === 0) return { status: 503, html: renderMessagePage('Payment unavailable', 'No payment method can take this payment right now. Try again later, or contact the merchant.') };
    const cookie = randomBytes(32).toString('base64url');
    const csrf = this.links.tokens.csrfFieldFor(cookie, hashCheckoutToken(token));
    const maxAge = Math.max(1, Math.ceil((payin.expiresAt.getTime() - this.clock()) / 1000));
    void reply.header('set-cookie', `${CSRF_COOKIE}=${cookie}; Path=/payment/checkout/${token}; Max-Age=${maxAge}; HttpOnly; SameSite=Strict${this.secureCookie ? '; Secure' : ''}`);
    const summary = this.summary(payin);
    const { method, ...shownAgain } = extra;
    const lastAttempt = payin.attempts.at(-1);
    // The last attempt's decline, in plain words, until the customer tries again; a notice of this request's own comes first.
    const declined =
      lastAttempt?.outcome === 'declined' && lastAttempt.declineReason !== null && extra.notice === undefined && extra.errors === undefined
        ? { notice: declineNotice(lastAttempt.declineReason, lastAttempt.channel, methods.map((m) => m.channel), this.payins.attemptsLeft(payin)) }
        : {};
    const html = renderCheckoutPage({
      ...summary,
      merchantName: summary.merchantName ?? merchant.name,
      action: ROUTES.checkout(token),
      csrf,
      sandbox: this.config.mode === 'sandbox',
      methods,
      selected: method ?? (methods[0] as CheckoutMethod).channel,
      expiresAt: payin.expiresAt,
      now: new Date(this.clock()),
      ...declined,
      ...shownAgain,
    });
    return { status, html, brand: summary.brand, formTargets: [payin.redirectUrl, payin.providerPaymentUrl] };
  }

  /** What every page shows of the payin, and the merchant's name and look while it takes payments. */
  private summary(payin: StoredPayin): PayinSummary {
    const merchant = this.merchants.merchantTakingPayments(payin.merchantId);
    const branding = merchant ? this.merchants.brandingOf(payin.merchantId) : undefined;
    return {
      merchantName: merchant ? (branding?.displayName ?? merchant.name) : null,
      amount: formatAmount(payin.amountMinor, payin.currency),
      reference: payin.reference,
      narration: payin.narration,
      customerEmail: payin.customerEmail,
      ...(branding && (branding.brandColor || branding.logo) ? { brand: { color: branding.brandColor, logo: branding.logo } } : {}),
    };
  }

  /** The form's field is the HMAC of the page's cookie for this checkout: both must be there, and agree. */
  private csrfMatches(request: FastifyRequest, form: URLSearchParams, token: string): boolean {
    const sent = form.getAll('csrf');
    const cookie = cookieValue(request.headers.cookie, CSRF_COOKIE);
    if (sent.length !== 1 || cookie === undefined || !/^[A-Za-z0-9_-]{43}$/.test(cookie)) return false;
    const [a, b] = [Buffer.from(sent[0] as string), Buffer.from(this.links.tokens.csrfFieldFor(cookie, hashCheckoutToken(token)))];
    return a.length === b.length && timingSafeEqual(a, b);
  }

  private send(reply: FastifyReply, answer: PageAnswer): void {
    const formTarget = (answer.formTargets ?? [])
      .filter((target): target is string => target !== null && URL.canParse(target))
      .map((target) => ` ${new URL(target).origin}`)
      .join('');
    void reply
      .status(answer.status)
      .header('content-type', 'text/html; charset=utf-8')
      .header('content-security-policy', checkoutCsp(formTarget, answer.brand))
      .header('cache-control', 'no-store')
      // The token is in the URL: no Referer may carry it to the merchant or anyone else.
      .header('referrer-policy', 'no-referrer')
      .header('x-content-type-options', 'nosniff')
      .header('x-frame-options', 'DENY')
      .send(answer.html);
  }
}

/**
 * The browser's own word on where a form came from: this page posts
 * same-origin. Another site, a sibling subdomain included, is refused; a
 * browser too old to send the header is left to the CSRF pair.
 */
function sentFromThisPage(request: FastifyRequest): boolean {
  const site = request.headers['sec-fetch-site'];
  return site === undefined || site === 'same-origin' || site === 'none';
}

/** The link of a merchant removed from the merchants file, or with every key revoked: 410, naming no merchant. */
function noLongerPayable(): PageAnswer {
  return {
    status: 410,
    html: renderMessagePage('This payment can no longer be completed', 'The merchant no longer takes payments through this link, so nothing can be paid here and nothing was charged. Contact the merchant for another way to pay.'),
  };
}

function notFound(): PageAnswer {
  return { status: 404, html: renderMessagePage('Payment link not found', 'This payment link does not exist. Check that you opened the whole link the merchant gave you, or ask the merchant for a new one.') };
}

/**
 * The merchant's redirectUrl with `reference` and `status` appended. The
 * merchant's own query is kept byte for byte, and its fragment stays last.
 */
export function withOutcome(redirectUrl: string, payin: Pick<StoredPayin, 'reference' | 'status'>): string {
  const hashAt = redirectUrl.indexOf('#');
  const [base, fragment] = hashAt === -1 ? [redirectUrl, ''] : [redirectUrl.slice(0, hashAt), redirectUrl.slice(hashAt)];
  const separator = !base.includes('?') ? '?' : base.endsWith('?') || base.endsWith('&') ? '' : '&';
  return `${base}${separator}reference=${encodeURIComponent(payin.reference)}&status=${payin.status}${fragment}`;
}

function cookieValue(header: string | undefined, name: string): string | undefined {
  for (const part of header?.split(';') ?? []) {
    const at = part.indexOf('=');
    if (at !== -1 && part.slice(0, at).trim() === name) return part.slice(at + 1).trim();
  }
  return undefined;
}
