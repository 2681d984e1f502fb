/** Payment result (product.md#payment-result): standalone, redirects home when status is missing. */
import { Link, Redirect, useSearch } from 'wouter';
import { routes } from '../../lib/route-paths';
import { button, card, centered, heading, narrowPage } from '../../styles/ui.css';

const RESULTS: Record<string, { title: string; text: string }> = {
  success: { title: 'Payment Successful', text: 'Thank you! Your PREMIUM subscription is being activated.' },
  failed: { title: 'Payment Failed', text: 'Your payment did not go through. No charge was made; please try again.' },
  canceled: { title: 'Payment Cancelled', text: 'You cancelled the payment. No charge was made.' },
};

export default function PaymentResultPage() {
  const status = new URLSearchParams(useSearch()).get('status');
  if (!status) return <Redirect to={routes.home} replace />;
  const result = RESULTS[status] ?? { title: 'Error', text: 'We could not read the result of this payment.' };
  return (
    <div className={narrowPage}>
      <div className={`${card} ${centered}`}>
        <h1 className={heading}>{result.title}</h1>
        <p>{result.text}</p>
        <Link href={routes.subscription} className={button.primary}>Go to Subscription</Link>
      </div>
    </div>
  );
}
