/**
 * The Renew now action's name, in one place (product.md#checkout-renewal): the button (renewNow.connect.ts) and
 * the PAST_DUE notice's sentence that names it (subscription.format.ts) both read it, so it changes once.
 */
import { m } from '../../i18n';

export const renewNowLabel = (): string => m.renew_now();
