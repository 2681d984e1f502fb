/** "This wasn't me" (/account/email/undo?token=…; issue 36, product.md#email-change): the emailUndo chart's view. */
import { Link, useSearch } from 'wouter';
import { m } from '../../i18n';
import { routes } from '../../lib/route-paths';
import { createAuthActors } from '../../machines/actors';
import { connectEmailUndo } from '../../machines/emailUndo/emailUndo.connect';
import { emailUndoMachine } from '../../machines/emailUndo/emailUndo.machine';
import { button, card, heading, narrowPage } from '../../styles/ui.css';
import { ErrorBox } from '../parts/ErrorBox';
import { useServices } from '../services';
import { useApi } from '../useApi';
import { useConnect, useFlow } from '../useFlow';
import * as css from './emailUndo.css';

export default function EmailUndoPage() {
  const { session } = useServices();
  const params = new URLSearchParams(useSearch());
  const actor = useFlow(emailUndoMachine, {
    actors: createAuthActors(useApi()),
    // Every session ended, this browser's too: it forgets its token at once rather than on its next call.
    // (Signed out already, the session ignores it.)
    actions: { signOutHere: () => session.send({ type: 'session.logout' }) },
    input: { token: params.get('token') },
  });
  const { asking, onConfirm, undoing, undone, failed, message } = useConnect(actor, connectEmailUndo);
  return (
    <div className={narrowPage}>
      <div className={card}>
        {asking && (
          <>
            <h1 className={heading}>{m.undo_email_question()}</h1>
            <p>{m.undo_email_explain()}</p>
            <div className={css.actions}>
              <button type="button" className={button.primary} onClick={onConfirm}>{m.undo_email_button()}</button>
              <Link href={routes.home} className={button.secondary}>{m.go_to_homepage()}</Link>
            </div>
          </>
        )}
        {undoing && <p role="status" aria-live="polite">{m.changing_your_email_address_back()}</p>}
        {undone && (
          <>
            <h1 className={heading}>{m.your_email_address_is_back()}</h1>
            <p role="status">{m.your_email_address_was_changed_back()}</p>
            <p>{m.whoever_changed_it_knew_your_password()}</p>
            <div className={css.actions}>
              <Link href={routes.forgotPassword} className={button.primary}>{m.reset_password()}</Link>
              <Link href={routes.login} className={button.secondary}>{m.log_in()}</Link>
            </div>
          </>
        )}
        {failed && (
          <>
            <h1 className={heading}>{m.we_could_not_undo_the_change()}</h1>
            <ErrorBox message={message ?? m.this_link_is_incomplete()} />
            <p><Link href={routes.home} className={button.primary}>{m.go_to_homepage()}</Link></p>
          </>
        )}
      </div>
    </div>
  );
}
