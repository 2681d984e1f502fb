import { Link } from 'wouter';
import { PRODUCT_NAME } from '../../lib/product';
import { routes } from '../../lib/route-paths';
import { heading, muted } from '../../styles/ui.css';
import { legal } from './legal.css';

export default function PrivacyPage() {
  return (
    <article className={legal}>
      <h1 className={heading}>Privacy Policy</h1>
      <p className={muted}>How {PRODUCT_NAME} handles your personal information.</p>
      <h2>What we collect</h2>
      <p>Your email, name, birthdate and profile photo, your subscription and payment records, and the payment method details Maya returns to us (never your full card number).</p>
      <h2>Children</h2>
      <p>{PRODUCT_NAME} is not directed at children under 13, and we do not knowingly collect their information.</p>
      <h2>Payments</h2>
      <p>Payments are processed by Maya. Subscription fees are non-refundable; cancellation takes effect at period end; a checkout payment is a one-time charge per period with no automatic renewal.</p>
      <p>See also our <Link href={routes.terms}>Terms and Conditions</Link>.</p>
    </article>
  );
}
