/**
 * Words a new user met raw or wrong (issue 19): the change-plan dialog of a checkout subscription, and
 * the linked wallet's card state.
 */
import { describe, expect, it } from 'vitest';
import { changeExplanation } from '../../src/machines/changePlan/changePlan.connect';
import { walletCardState } from '../../src/machines/walletLink/walletLink.connect';

describe('the change-plan dialog says how the change is paid', () => {
  it('a card or wallet subscription pays at once with its current method', () => {
    for (const method of ['MAYA_VAULT', 'MAYA_WALLET']) {
      expect(changeExplanation('Yearly', method)).toBe(
        'You are changing to the Yearly plan. The payment is taken immediately with your current payment method, and the remaining days of your current subscription are added.',
      );
    }
  });
  it("a checkout subscription pays on Maya's page, not 'with your current payment method'", () => {
    const text = changeExplanation('Yearly', 'MAYA_CHECKOUT');
    expect(text).toBe("You are changing to the Yearly plan. You pay for it next on Maya's secure checkout page, and the remaining days of your current subscription are added.");
    expect(text).not.toMatch(/current payment method/);
  });
});

describe("the linked wallet's card state", () => {
  it('is said in words, never as the raw value', () => {
    expect(walletCardState('VERIFIED')).toBe('Verified');
    expect(walletCardState('PRE_VERIFICATION')).toBe('Waiting for verification');
    expect(walletCardState('SOMETHING_NEW')).toBe('Something new');
    expect(walletCardState(null)).toBeNull();
  });
});
