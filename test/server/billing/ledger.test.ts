/**
 * The ledger's classification (issue 32): a failed call or an answer is declined (soft or hard, from
 * Maya's status and codes, never from message text), unknown (Maya may have charged: read it by
 * reference), or our own fault (nothing charged: an alert, never a decline for the viewer).
 */
import { describe, expect, it } from 'vitest';
import { classifyError, classifyPayment, DECLINE_REASONS } from '../../../server/billing/ledger';
import { GatewayError } from '../../../server/gateway/maya';

describe('a failed gateway call', () => {
  it.each([
    ['unreachable or timed out', new GatewayError(0, 'UNREACHABLE', 'x')],
    ['a 500', new GatewayError(500, 'HTTP_500', 'x')],
    ['a 503', new GatewayError(503, 'HTTP_503', 'x')],
    ['a 200 our schema refuses', new GatewayError(200, 'BAD_RESPONSE', 'x')],
    ['not a gateway error at all', new Error('socket hang up')],
  ])('%s is unknown: Maya may have charged', (_, error) => {
    expect(classifyError(error, 'CARD')).toMatchObject({ outcome: 'UNKNOWN', reason: DECLINE_REASONS.unknown });
  });

  it.each([
    ['401 (a rotated key)', 401, 'K001'],
    ['403 (a key without the right)', 403, 'K003'],
    ['429 (our rate)', 429, 'HTTP_429'],
    ['400 (our request refused)', 400, 'PY0001'],
    ['404 on a checkout', 404, 'PY0404'],
  ])('%s is our own fault, whatever its message says', (_, status, code) => {
    // A message that reads like a decline changes nothing: only the status and the code are read.
    expect(classifyError(new GatewayError(status, code, 'Card expired, lost or stolen'), status === 404 ? 'CHECKOUT' : 'CARD')).toMatchObject({ outcome: 'OURS' });
  });

  it('a card or wallet Maya no longer knows is a hard decline; a 402 a soft one; a hard code a hard one', () => {
    expect(classifyError(new GatewayError(404, 'CARD', 'x'), 'CARD')).toMatchObject({ outcome: 'DECLINED', decline: 'HARD', reason: DECLINE_REASONS.cardGone });
    expect(classifyError(new GatewayError(404, 'LINK', 'x'), 'WALLET')).toMatchObject({ outcome: 'DECLINED', decline: 'HARD', reason: DECLINE_REASONS.walletGone });
    expect(classifyError(new GatewayError(402, 'X', 'x'), 'CARD')).toMatchObject({ outcome: 'DECLINED', decline: 'SOFT' });
    expect(classifyError(new GatewayError(400, 'PY0011', 'x'), 'CARD')).toMatchObject({ outcome: 'DECLINED', decline: 'HARD', reason: DECLINE_REASONS.cardExpired });
  });
});

describe("Maya's answer about a payment", () => {
  it('a success, a failure (soft unless a hard code), an expiry, a cancel and a reversal are final; anything else stays open', () => {
    expect(classifyPayment({ status: 'PAYMENT_SUCCESS' })).toMatchObject({ outcome: 'SUCCEEDED' });
    expect(classifyPayment({ status: 'CAPTURED' })).toMatchObject({ outcome: 'SUCCEEDED' });
    expect(classifyPayment({ status: 'PAYMENT_FAILED' })).toMatchObject({ outcome: 'DECLINED', decline: 'SOFT' });
    expect(classifyPayment({ status: 'PAYMENT_FAILED', errorCode: 'PY0011' })).toMatchObject({ outcome: 'DECLINED', decline: 'HARD', reason: DECLINE_REASONS.cardExpired });
    expect(classifyPayment({ status: 'AUTH_FAILED' })).toMatchObject({ outcome: 'DECLINED' });
    expect(classifyPayment({ status: 'PAYMENT_EXPIRED' })).toMatchObject({ outcome: 'EXPIRED' });
    expect(classifyPayment({ status: 'PAYMENT_CANCELLED' })).toMatchObject({ outcome: 'CANCELLED' });
    expect(classifyPayment({ status: 'VOIDED' })).toMatchObject({ outcome: 'REVERSED' });
    expect(classifyPayment({ status: 'REFUNDED' })).toMatchObject({ outcome: 'REVERSED' });
    for (const status of ['PENDING_TOKEN', 'PENDING_PAYMENT', 'PAYMENT_PROCESSING', 'AUTHORIZED', 'FOR_AUTHENTICATION']) {
      expect(classifyPayment({ status }), status).toMatchObject({ outcome: 'OPEN' });
    }
  });
});
