/** Payment fixtures in the shapes the reference server sends (plans, saved cards, wallet links). */
import type { Plan, SavedCard, WalletLink } from '../../src/api/schemas';

export const monthlyPlan: Plan = {
  id: 1, slug: 'monthly', name: 'Monthly', description: 'Every Bisaya film and series, billed monthly.', price: '99.00', currency: 'PHP',
  duration: '1', billingCycle: 'month', trialDays: 0, sortOrder: 1, isActive: true,
  features: ['Unlimited Bisaya films and series', 'Cancel anytime'], popular: false,
};
export const yearlyPlan: Plan = {
  id: 2, slug: 'yearly', name: 'Yearly', description: 'One payment a year.', price: '990.00', currency: 'PHP',
  duration: '1', billingCycle: 'year', trialDays: 0, sortOrder: 2, isActive: true, features: ['Everything in Monthly'], popular: true,
};
export const plansFixture: Plan[] = [monthlyPlan, yearlyPlan];

export const savedVisa: SavedCard = {
  createdAt: '2026-11-01T00:00:00.000Z', updatedAt: '2026-11-01T00:00:00.000Z', cardTokenId: 'tok-visa-1381', cardType: 'visa',
  first6: '412345', last4: '1381', maskedPan: '1381', walletType: 'VAULT', state: 'VERIFIED', default: true,
};
export const newJcb: SavedCard = {
  ...savedVisa, cardTokenId: 'tok-jcb-0007', cardType: 'jcb', first6: '352800', last4: '0007', maskedPan: '0007',
};

export const walletLinkFixture: WalletLink = {
  linkId: 'link-1', profileId: 'profile-1', card: { state: 'VERIFIED' },
  customer: { firstName: 'Maria', lastName: 'Santos', contact: { phone: '+639193890579', email: 'maria@example.com' } },
};
