/**
 * The sandbox's hosted pages: plain server-rendered HTML with forms, no JavaScript (the CSP allows
 * scripts from our origin only, and these need none), usable with the keyboard alone: real buttons
 * in a form, visible focus, a heading and a summary list a screen reader can walk.
 */
import { MERCHANT_NAME } from '../gateway/config';

export interface PageModel {
  kind: 'checkout' | '3ds' | 'link' | 'verify';
  /** The bank's page asks for the card's 3-D Secure passkey (Maya's test cards have one each). */
  asksPasskey?: boolean;
  /** null for a wallet link (no charge). */
  amount: string | null;
  currency: string;
  reference: string;
  description: string;
  card: { brand: string; last4: string } | null;
  /** The form's address (same origin). */
  action: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
export const escapeHtml = (text: string) => text.replace(/[&<>"']/g, (ch) => ESCAPES[ch]!);

const BRANDS: Record<string, string> = { visa: 'Visa', 'master-card': 'Mastercard', jcb: 'JCB' };
const money = (currency: string, amount: string) => `${currency === 'PHP' ? '₱' : `${currency} `}${amount}`;

const STYLE = `
  body { font: 16px/1.5 system-ui, sans-serif; margin: 0; background: #0b3d2e; color: #102a22; }
  main { max-width: 28rem; margin: 2rem auto; background: #fff; border-radius: 12px; padding: 1.5rem; }
  .sandbox { background: #fff4cc; border: 1px solid #c9a400; border-radius: 6px; padding: .5rem .75rem; font-size: .875rem; }
  dl { display: grid; grid-template-columns: auto 1fr; gap: .25rem 1rem; }
  dt { font-weight: 600; }
  dd { margin: 0; overflow-wrap: anywhere; }
  .actions { display: flex; flex-wrap: wrap; gap: .75rem; margin-top: 1.5rem; }
  button, a.button { font: inherit; min-height: 44px; padding: .5rem 1.25rem; border-radius: 8px; border: 2px solid #0b3d2e; cursor: pointer; background: #fff; color: #0b3d2e; text-decoration: none; display: inline-flex; align-items: center; }
  button.primary { background: #00a651; border-color: #00a651; color: #fff; }
  input { font: inherit; min-height: 44px; width: 100%; box-sizing: border-box; padding: .5rem; border: 2px solid #0b3d2e; border-radius: 8px; }
  button:focus-visible, a:focus-visible, input:focus-visible { outline: 3px solid #1a73e8; outline-offset: 2px; }
`;

function layout(title: string, content: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} · Maya sandbox</title>
<style>${STYLE}</style>
</head>
<body>
<main>
<p class="sandbox" role="note">Maya sandbox on this machine: no real money moves.</p>
${content}
</main>
</body>
</html>`;
}

const TITLES: Record<PageModel['kind'], { heading: string; approve: string; decline: string; intro: string }> = {
  checkout: { heading: 'Pay with Maya Checkout', approve: 'Pay', decline: 'Decline', intro: 'Approve to pay, decline to make the payment fail, or cancel to go back.' },
  '3ds': { heading: '3-D Secure verification', approve: 'Authenticate', decline: 'Fail authentication', intro: 'Your bank asks you to confirm this card payment.' },
  verify: { heading: 'Verify your card', approve: 'Verify', decline: 'Fail verification', intro: `Your bank asks you to confirm this card before ${MERCHANT_NAME} can charge it.` },
  link: { heading: 'Link your Maya wallet', approve: 'Allow', decline: 'Decline', intro: `Log in as the sandbox Maya account to let ${MERCHANT_NAME} charge your wallet for future payments.` },
};

export function renderPage(model: PageModel): string {
  const text = TITLES[model.kind];
  const rows = [
    ['Merchant', MERCHANT_NAME],
    ...(model.amount !== null ? [['Amount', money(model.currency, model.amount)]] : []),
    ['Reference', model.reference],
    ...(model.description ? [['For', model.description]] : []),
    ...(model.card ? [['Card', `${BRANDS[model.card.brand] ?? model.card.brand} ending in ${model.card.last4}`]] : []),
    ...(model.kind === 'link' ? [['Maya account', '0919 389 0579 (sandbox)']] : []),
  ];
  return layout(
    text.heading,
    `<h1>${escapeHtml(text.heading)}</h1>
<p>${escapeHtml(text.intro)}</p>
<dl>${rows.map(([term, value]) => `<dt>${escapeHtml(term!)}</dt><dd>${escapeHtml(value!)}</dd>`).join('')}</dl>
<form method="post" action="${escapeHtml(model.action)}">
${model.asksPasskey ? '<p><label for="passkey">3-D Secure password</label><br><input id="passkey" name="passkey" type="password" autocomplete="off"></p>' : ''}
<div class="actions">
<button class="primary" type="submit" name="action" value="approve">${escapeHtml(text.approve)}</button>
<button type="submit" name="action" value="decline">${escapeHtml(text.decline)}</button>
<button type="submit" name="action" value="cancel">Cancel</button>
</div>
</form>`,
  );
}

/** A page that needs no choice: already answered, expired or unknown; a link back when there is one. */
export function renderOutcome(heading: string, message: string, backTo: string | null): string {
  return layout(
    heading,
    `<h1>${escapeHtml(heading)}</h1>
<p>${escapeHtml(message)}</p>
${backTo ? `<p><a class="button" href="${escapeHtml(backTo)}">Back to ${escapeHtml(MERCHANT_NAME)}</a></p>` : ''}`,
  );
}
