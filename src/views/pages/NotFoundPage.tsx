import { Link } from 'wouter';
import { routes } from '../../lib/route-paths';
import { m } from '../../i18n';
import { button, card, centered, heading, narrowPage } from '../../styles/ui.css';

export default function NotFoundPage() {
  return (
    <div className={narrowPage}>
      <div className={`${card} ${centered}`}>
        <h1 className={heading}>{m.page_not_found_2()}</h1>
        <p>{m.the_page_you_are_looking_for_does()}</p>
        <Link href={routes.home} className={button.primary}>{m.go_to_homepage()}</Link>
      </div>
    </div>
  );
}
