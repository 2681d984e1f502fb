import { Link } from 'wouter';
import { routes } from '../../lib/route-paths';
import { button, card, centered, heading, narrowPage } from '../../styles/ui.css';

export default function NotFoundPage() {
  return (
    <div className={narrowPage}>
      <div className={`${card} ${centered}`}>
        <h1 className={heading}>Page not found</h1>
        <p>The page you are looking for does not exist or has moved.</p>
        <Link href={routes.home} className={button.primary}>Go to Homepage</Link>
      </div>
    </div>
  );
}
