import { Link } from 'wouter';
import { PRODUCT_NAME } from '../../lib/product';
import { routes } from '../../lib/route-paths';
import { heading, muted } from '../../styles/ui.css';
import { legal } from './legal.css';

export default function TermsPage() {
  return (
    <article className={legal}>
      <h1 className={heading}>Terms and Conditions</h1>
      <p className={muted}>These terms govern your use of {PRODUCT_NAME}.</p>
      <h2>Who may use {PRODUCT_NAME}</h2>
      <p>You must be at least 18 years old to create an account and subscribe.</p>
      <h2>Subscriptions and payment</h2>
      <p>PREMIUM subscriptions are paid through Maya by saved card, linked Maya wallet or one-time checkout, or activated with a voucher code.</p>
      <p>Subscription fees are non-refundable.</p>
      <p>A checkout payment is a one-time charge per subscription period with no automatic renewal; the app reminds you when renewal is due.</p>
      <h2>Cancellation</h2>
      <p>Cancellation takes effect at the end of the current billing period; you keep access until then.</p>
      <h2>Content</h2>
      <p>Videos are streamed in the mobile apps. There is no download option.</p>
      <p>See also our <Link href={routes.privacy}>Privacy Policy</Link>.</p>
    </article>
  );
}
