import { createHash } from 'node:crypto';
import type { DeclineReason, FailureReason, PayinChannel, PayinStatus } from '@paysign/contracts';
import type { CardField, CheckoutMethod } from '../providers/ports/payment-gateway.port';
import type { Logo } from '../merchants/branding';
import { formatMoney } from '../money/money';

// Server-rendered pages for the customer: no external asset, one inline
// stylesheet and one inline script, each allowed by its hash. Plain forms, so
// they work without JavaScript (the script only adds to them); labels,
// visible focus and AA contrast, checked by axe-core, so they work for everyone.

const STYLE = `
*{box-sizing:border-box}
body{margin:0;font:16px/1.5 system-ui,-apple-system,"Segoe UI",Roboto,sans-serif;color:#1a1a1a;background:#f3f4f6}
main{max-width:30rem;margin:0 auto;padding:1rem}
.card{background:#fff;border:1px solid #d0d4da;border-radius:8px;padding:1rem 1.25rem;margin:0 0 1rem}
.merchant{margin:0;color:#4a4f57;font-weight:600}
h1{font-size:1.9rem;margin:.25rem 0 .5rem}
h2{font-size:1.15rem;margin:0 0 .75rem}
dl{display:grid;grid-template-columns:auto 1fr;gap:.25rem .75rem;margin:0}
dt{color:#4a4f57}dd{margin:0;overflow-wrap:anywhere}
label{display:block;font-weight:600;margin:.75rem 0 .25rem}
input[type=text]{width:100%;font:inherit;padding:.6rem .7rem;border:2px solid #6b7280;border-radius:6px;background:#fff;color:#1a1a1a}
input[aria-invalid=true]{border-color:#b3261e}
.row{display:flex;gap:.75rem}.row>div{flex:1}
.hint{margin:.25rem 0 0;color:#4a4f57;font-size:.9rem}
.error{margin:.25rem 0 0;color:#b3261e;font-weight:600}
button{font:inherit;font-weight:600;width:100%;margin-top:1rem;padding:.75rem 1rem;border:0;border-radius:6px;background:var(--brand,#0b5cad);color:#fff;cursor:pointer}
button.secondary{background:#fff;color:var(--brand,#0b5cad);border:2px solid var(--brand,#0b5cad)}
button.link{width:auto;background:none;color:var(--brand,#0b5cad);text-decoration:underline;padding:.25rem 0;margin:0}
a{color:var(--brand,#0b5cad)}
button.copy{width:auto;margin:.25rem 0 0 .5rem;padding:.2rem .6rem;font-size:.85rem;background:#fff;color:var(--brand,#0b5cad);border:2px solid var(--brand,#0b5cad)}
.logo{display:block;max-height:48px;max-width:160px;width:auto;height:auto;margin:0 0 .5rem}
:focus-visible{outline:3px solid #b35c00;outline-offset:2px}
.notice{border-left:4px solid #b3261e;padding:.5rem .75rem;background:#fdf0ef}
.sandbox{border-left:4px solid #8a5a00;padding:.5rem .75rem;background:#fff7e6;font-size:.9rem}
table{border-collapse:collapse;width:100%;font-size:.9rem}th,td{text-align:left;padding:.25rem .5rem .25rem 0;border-bottom:1px solid #e5e7eb}
code{font-family:ui-monospace,Menlo,Consolas,monospace}td code{white-space:nowrap}
.status{font-size:1.4rem;font-weight:700;margin:.25rem 0}
.secured{text-align:center;color:#4a4f57;font-size:.85rem;margin:0 0 1rem}
.methods ul{display:flex;gap:.5rem;list-style:none;margin:0 0 1rem;padding:0}
.methods li{flex:1;display:flex}
.methods a{flex:1;display:flex;align-items:center;justify-content:center;text-align:center;padding:.6rem .25rem;border:2px solid #6b7280;border-radius:6px;background:#fff;color:#1a1a1a;text-decoration:none;font-weight:600}
.methods a[aria-current=page]{border-color:var(--brand,#0b5cad);background:var(--brand,#0b5cad);color:#fff}
`;

/** The only style the pages' Content-Security-Policy allows. */
export const STYLE_HASH = `'sha256-${createHash('sha256').update(STYLE).digest('base64')}'`;

// Progressive enhancement, for browsers that run script: copy buttons for
// what the customer must type (the account number, the amount), and the
// transfer deadline in the customer's own time, its minutes kept current.
// Without script the page is complete: the deadline is server-rendered.
const ENHANCEMENT = `(function () {
  var copyable = document.querySelectorAll('[data-copy]');
  for (var i = 0; navigator.clipboard && i < copyable.length; i++) {
    (function (source) {
      var label = 'Copy ' + source.getAttribute('data-copy-label');
      var button = document.createElement('button');
      button.type = 'button';
      button.className = 'copy';
      button.textContent = label;
      button.addEventListener('click', function () {
        navigator.clipboard.writeText(source.getAttribute('data-copy')).then(function () {
          button.textContent = 'Copied';
          setTimeout(function () { button.textContent = label; }, 2000);
        });
      });
      source.parentNode.insertBefore(button, source.nextSibling);
    })(copyable[i]);
  }
  var deadline = document.querySelector('time[data-deadline]');
  var left = document.querySelector('[data-minutes-left]');
  if (!deadline || !left) return;
  var end = Date.parse(deadline.getAttribute('datetime'));
  deadline.textContent = new Date(end).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' });
  var tick = function () {
    var minutes = Math.max(0, Math.floor((end - Date.now()) / 60000));
    left.textContent = minutes === 0 ? 'less than a minute left' : minutes + (minutes === 1 ? ' minute left' : ' minutes left');
  };
  tick();
  setInterval(tick, 15000);
})();`;

/** The only script the pages' Content-Security-Policy allows. */
const SCRIPT_HASH = `'sha256-${createHash('sha256').update(ENHANCEMENT).digest('base64')}'`;

/** A merchant's look on its pages: its colour (already of AA contrast with white) and its embedded logo. */
export interface Brand {
  color: string | undefined;
  logo: Logo | undefined;
}

/** The one rule a brand adds: the colour every button and link takes. */
function brandStyle(color: string): string {
  return `:root{--brand:${color}}`;
}

/** The pages' Content-Security-Policy; error pages, whose forms (none) need no target, use it too. */
export function checkoutCsp(formTarget = '', brand?: Brand): string {
  const styles = [STYLE_HASH, ...(brand?.color ? [`'sha256-${createHash('sha256').update(brandStyle(brand.color)).digest('base64')}'`] : [])].join(' ');
  // Images only as the merchant's logo, embedded in the page: no origin is ever named.
  const images = brand?.logo ? 'data:' : "'none'";
  // form-action covers the redirect after a submission too, so the merchant's origin, and a hosted gateway's page, are allowed there.
  return `default-src 'none'; script-src ${SCRIPT_HASH}; style-src ${styles}; img-src ${images}; form-action 'self'${formTarget}; frame-ancestors 'none'; base-uri 'none'`;
}

export interface PayinSummary {
  /** Null once the merchant no longer takes payments: the page then names no merchant, never its ID. */
  merchantName: string | null;
  amount: string;
  reference: string;
  narration: string | null;
  /** Where the receipt goes, shown so that the customer can catch a mistyped address. */
  customerEmail?: string;
  /** The merchant's look, while it takes payments. */
  brand?: Brand;
}

export interface CheckoutView extends PayinSummary {
  merchantName: string;
  action: string;
  csrf: string;
  sandbox: boolean;
  methods: CheckoutMethod[];
  /** The method shown; the others are links in the chooser. */
  selected: PayinChannel;
  /** When the payin expires, and now: the transfer's deadline, shown in Lagos time with the minutes left. */
  expiresAt: Date;
  now: Date;
  /** Shown above the methods, such as why a submission was refused. */
  notice?: string;
  errors?: Partial<Record<CardField, string>>;
  /** What the customer typed, shown again after an error; never the security code. */
  values?: { cardNumber?: string; cardExpiry?: string };
}

export interface OutcomeView extends PayinSummary {
  status: PayinStatus;
  failureReason: FailureReason | null;
  continueUrl: string | null;
  /** A PENDING payin back from a hosted gateway: the return page, to ask the provider again. */
  checkAgainUrl?: string;
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}

/** The amount as customers read it: ₦1,500.50. */
export function formatAmount(amountMinor: bigint, currency: string): string {
  return formatMoney({ minor: amountMinor, currency });
}

export function renderCheckoutPage(view: CheckoutView): string {
  const e = escapeHtml;
  const errors = view.errors ?? {};
  const errorCount = Object.keys(errors).length;
  const summary =
    errorCount > 0
      ? `<div class="card notice" role="alert"><h2>There ${errorCount === 1 ? 'is a problem' : `are ${errorCount} problems`}</h2><ul>${Object.entries(errors)
          .map(([field, message]) => `<li><a href="#${field}">${e(message as string)}</a></li>`)
          .join('')}</ul></div>`
      : view.notice
        ? `<div class="card notice" role="alert"><p>${e(view.notice)}</p></div>`
        : '';
  const hidden = (action: string) => `<input type="hidden" name="csrf" value="${e(view.csrf)}"><input type="hidden" name="action" value="${action}">`;
  const form = (action: string, body: string) => `<form method="post" action="${e(view.action)}" novalidate>${hidden(action)}${body}</form>`;
  const shown = view.methods.find((method) => method.channel === view.selected) ?? (view.methods[0] as CheckoutMethod);
  const body = `${summaryCard(view, `Pay ${view.merchantName}`)}
${view.sandbox ? '<p class="card sandbox"><strong>Test mode.</strong> No real money moves. Use the test details shown below.</p>' : ''}
${summary}
${methodChooser(view.methods, shown.channel, view.action)}
${renderMethod(shown, view, form, errors)}
<div class="card">${form('cancel', '<button type="submit" class="link">Cancel payment</button>')}</div>`;
  return page(`Pay ${view.amount} to ${view.merchantName}`, body, view.brand);
}

const CHANNEL_LABELS: Record<PayinChannel, string> = { card: 'Card', bank_transfer: 'Bank transfer', ussd: 'USSD' };

/** What went wrong, as the customer's bank would say it; a decline that ends the payin is never shown here, since the payin is then final. */
const DECLINE_TEXT: Record<DeclineReason, string> = {
  card_declined: 'Your bank declined this card.',
  insufficient_funds: 'Your bank declined this card: there is not enough money on it.',
  expired_card: 'Your bank declined this card: it has expired.',
  incorrect_cvc: 'Your bank declined this card: the security code was wrong.',
  transfer_not_received: 'Your transfer has not arrived.',
  fraud_suspected: 'Your bank blocked this payment.',
};
const PAY_BY: Record<PayinChannel, string> = { card: 'pay by card', bank_transfer: 'pay by transfer', ussd: 'pay with USSD' };

/** "Your bank declined this card. Try another card, pay by transfer or pay with USSD. You have 2 attempts left." */
export function declineNotice(reason: DeclineReason, channel: PayinChannel, offered: readonly PayinChannel[], attemptsLeft: number): string {
  const again = channel === 'card' ? 'Try another card' : `Check the details and ${PAY_BY[channel]} again`;
  const ways = [again, ...offered.filter((other) => other !== channel).map((other) => PAY_BY[other])];
  const choice = ways.length === 1 ? again : `${ways.slice(0, -1).join(', ')} or ${ways.at(-1)}`;
  const left = attemptsLeft <= 1 ? 'This is your last attempt.' : `You have ${attemptsLeft} attempts left.`;
  return `${DECLINE_TEXT[reason]} ${choice}. ${left}`;
}

/** One method at a time: links to the others, the shown one marked as current. Links, not script, so it works with none. */
function methodChooser(methods: readonly CheckoutMethod[], selected: PayinChannel, action: string): string {
  if (methods.length < 2) return '';
  const links = methods.map(({ channel }) =>
    channel === selected
      ? `<li><a href="${escapeHtml(action)}?method=${channel}" aria-current="page">${CHANNEL_LABELS[channel]}</a></li>`
      : `<li><a href="${escapeHtml(action)}?method=${channel}">${CHANNEL_LABELS[channel]}</a></li>`,
  );
  return `<nav class="methods" aria-label="Payment method"><ul>${links.join('')}</ul></nav>`;
}

function renderMethod(
  method: CheckoutMethod,
  view: CheckoutView,
  form: (action: string, body: string) => string,
  errors: Partial<Record<CardField, string>>,
): string {
  const e = escapeHtml;
  if ('hostedBy' in method) {
    const { heading, button } = HOSTED_METHOD_TEXT[method.channel];
    return `<section class="card" aria-labelledby="${method.channel}-heading"><h2 id="${method.channel}-heading">${heading}</h2><p>You will pay on ${e(method.hostedBy)}'s secure page, then come back here.</p>${form(
      HOSTED_METHOD_ACTION[method.channel],
      `<button type="submit">${e(button(view.amount))}</button>`,
    )}</section>`;
  }
  switch (method.channel) {
    case 'card': {
      const field = (id: CardField, label: string, attributes: string, hint?: string, value?: string) => {
        const described = [hint ? `${id}-hint` : '', errors[id] ? `${id}-error` : ''].filter(Boolean).join(' ');
        return `<label for="${id}">${label}</label><input type="text" id="${id}" name="${id}" ${attributes}${value ? ` value="${e(value)}"` : ''}${errors[id] ? ' aria-invalid="true"' : ''}${described ? ` aria-describedby="${described}"` : ''}>${hint ? `<p class="hint" id="${id}-hint">${hint}</p>` : ''}${errors[id] ? `<p class="error" id="${id}-error">${e(errors[id] as string)}</p>` : ''}`;
      };
      const testCards = view.sandbox
        ? `<details open><summary>Sandbox test cards</summary><table><thead><tr><th scope="col">Card number</th><th scope="col">Outcome</th></tr></thead><tbody>${method.testCards
            .map((card) => `<tr><td><code>${e(card.number)}</code></td><td>${e(card.outcome)}</td></tr>`)
            .join('')}</tbody></table><p class="hint">Any future expiry date and any 3 digits.</p></details>`
        : '';
      return `<section class="card" aria-labelledby="card-heading"><h2 id="card-heading">Pay by card</h2>${form(
        'pay_card',
        `${field('cardNumber', 'Card number', 'inputmode="numeric" autocomplete="cc-number" maxlength="23"', undefined, view.values?.cardNumber)}
<div class="row"><div>${field('cardExpiry', 'Expiry date', 'inputmode="numeric" autocomplete="cc-exp" maxlength="7" placeholder="MM/YY"', 'MM/YY', view.values?.cardExpiry)}</div><div>${field('cardCvc', 'Security code', 'inputmode="numeric" autocomplete="cc-csc" maxlength="4"', '3 or 4 digits')}</div></div>
<button type="submit">Pay ${e(view.amount)}</button>`,
      )}${testCards}</section>`;
    }
    case 'bank_transfer':
      return `<section class="card" aria-labelledby="transfer-heading"><h2 id="transfer-heading">Pay by bank transfer</h2><p>Transfer exactly <strong data-copy="${e(plainAmount(view.amount))}" data-copy-label="amount">${e(view.amount)}</strong> to this account before ${transferDeadline(view.expiresAt, view.now)}:</p><dl><dt>Bank</dt><dd>${e(method.bankName)}</dd><dt>Account number</dt><dd><code data-copy="${e(method.accountNumber)}" data-copy-label="account number">${e(method.accountNumber)}</code></dd><dt>Account name</dt><dd>${e(method.accountName)}</dd></dl>${form(
        'confirm_transfer',
        '<button type="submit" class="secondary">I have sent the transfer</button>',
      )}</section>`;
    case 'ussd':
      return `<section class="card" aria-labelledby="ussd-heading"><h2 id="ussd-heading">Pay with USSD</h2><p>Dial <code>${e(method.dialCode)}</code> on the phone linked to your bank account and follow the prompts.</p>${form(
        'confirm_ussd',
        '<button type="submit" class="secondary">I have completed the USSD payment</button>',
      )}</section>`;
  }
}

/** Each channel's section and button; the buttons differ, so that a screen reader's list of buttons tells them apart. */
/** Where the market is: the server shows the deadline in its time, named; where script runs, the page shows it in the shopper's own. */
const DEADLINE_TIME = new Intl.DateTimeFormat('en-NG', { timeZone: 'Africa/Lagos', hour: '2-digit', minute: '2-digit', hourCycle: 'h23' });

/** "14:32 WAT (29 minutes left)": the minutes rounded down, so that the shopper never has less time than the page says. */
export function transferDeadline(expiresAt: Date, now: Date): string {
  const minutesLeft = Math.max(0, Math.floor((expiresAt.getTime() - now.getTime()) / 60_000));
  const left = minutesLeft === 0 ? 'less than a minute left' : `${minutesLeft} minute${minutesLeft === 1 ? '' : 's'} left`;
  return `<time datetime="${expiresAt.toISOString()}" data-deadline>${DEADLINE_TIME.format(expiresAt)} WAT</time> (<span data-minutes-left>${left}</span>)`;
}

/** The amount as a bank app takes it: ₦1,500.50 is 1500.50. */
function plainAmount(formatted: string): string {
  return formatted.replace(/[^0-9.]/g, '');
}

const HOSTED_METHOD_TEXT: Record<PayinChannel, { heading: string; button: (amount: string) => string }> = {
  card: { heading: 'Pay by card', button: (amount) => `Pay ${amount} by card` },
  bank_transfer: { heading: 'Pay by bank transfer', button: (amount) => `Pay ${amount} by bank transfer` },
  ussd: { heading: 'Pay with USSD', button: (amount) => `Pay ${amount} with USSD` },
};

/** The form action of each channel: the contract's CheckoutSubmission actions. */
const HOSTED_METHOD_ACTION: Record<PayinChannel, string> = { card: 'pay_card', bank_transfer: 'confirm_transfer', ussd: 'confirm_ussd' };

const OUTCOME_TITLES: Record<Exclude<PayinStatus, 'PENDING'>, string> = {
  SUCCESSFUL: 'Payment successful',
  FAILED: 'Payment declined',
  ABANDONED: 'This payment link has expired',
  CANCELLED: 'Payment cancelled',
};

const REASON_TEXT: Record<FailureReason, string> = {
  card_declined: 'The card was declined by its issuer.',
  insufficient_funds: 'The card has insufficient funds.',
  expired_card: 'The card has expired.',
  incorrect_cvc: 'The security code was incorrect.',
  transfer_not_received: 'The transfer was not received.',
  fraud_suspected: 'The bank blocked this payment. Nothing was charged.',
  too_many_attempts: 'It was declined, and this payment link takes no more attempts. Nothing was charged. Ask the merchant for a new payment link to try again.',
  checkout_expired: 'It was not paid in time. Ask the merchant for a new payment link.',
  customer_cancelled: 'You cancelled this payment. Nothing was charged.',
  merchant_cancelled: 'The merchant cancelled this payment. Nothing was charged.',
};

export function renderOutcomePage(view: OutcomeView): string {
  const e = escapeHtml;
  const title = view.status === 'PENDING' ? 'Payment pending' : OUTCOME_TITLES[view.status];
  const detail = view.failureReason
    ? `<p>${e(REASON_TEXT[view.failureReason])}</p>`
    : view.status === 'SUCCESSFUL'
      ? '<p>Your payment was received.</p>'
      : view.status === 'PENDING' && view.checkAgainUrl
        ? `<p>The payment provider has not confirmed this payment yet. If you paid, it is confirmed within a few minutes.</p><p><a href="${e(view.checkAgainUrl)}">Check again</a></p>`
        : '';
  const next = view.continueUrl ? `<p><a href="${e(view.continueUrl)}">Return to ${e(view.merchantName ?? 'the merchant')}</a></p>` : '<p>You can close this page.</p>';
  return page(title, `${summaryCard(view, view.merchantName ?? 'Payment')}<div class="card" role="status"><p class="status">${e(title)}</p>${detail}${next}</div>`, view.brand);
}

/** On to a hosted gateway's page by a link: for a payin started there only as the customer submitted, whose page's CSP could not yet name the provider. */
export function renderContinuePage(view: PayinSummary, provider: string, paymentPageUrl: string): string {
  const e = escapeHtml;
  return page(
    `Continue to ${provider}`,
    `${summaryCard(view, view.merchantName ?? 'Payment')}<div class="card"><p>This payment is taken on ${e(provider)}'s secure page.</p><p><a href="${e(paymentPageUrl)}">Continue to ${e(provider)} to pay ${e(view.amount)}</a></p></div>`,
    view.brand,
  );
}

/** A page for a link that leads nowhere: unknown (404) or expired (410) tokens, and refusals. */
export function renderMessagePage(title: string, message: string): string {
  return page(title, `<div class="card"><h1>${escapeHtml(title)}</h1><p>${escapeHtml(message)}</p></div>`);
}

function summaryCard(view: PayinSummary, heading: string): string {
  const e = escapeHtml;
  const logo = view.brand?.logo ? `<img class="logo" src="${e(view.brand.logo.dataUrl)}" width="${view.brand.logo.width}" height="${view.brand.logo.height}" alt="">` : '';
  return `<header class="card">${logo}<p class="merchant">${e(heading)}</p><h1>${e(view.amount)}</h1><dl><dt>Reference</dt><dd>${e(view.reference)}</dd>${
    view.narration ? `<dt>For</dt><dd>${e(view.narration)}</dd>` : ''
  }${view.customerEmail ? `<dt>Receipt to</dt><dd>${e(view.customerEmail)}</dd>` : ''}</dl></header>`;
}

function page(title: string, body: string, brand?: Brand): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)}</title>
<style>${STYLE}</style>${brand?.color ? `\n<style>${brandStyle(brand.color)}</style>` : ''}
</head>
<body>
<main>
${body}
<p class="secured">Secured by Paysign</p>
</main>
<script>${ENHANCEMENT}</script>
</body>
</html>
`;
}
