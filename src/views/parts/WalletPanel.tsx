/**
 * The Maya wallet panel (product.md#wallet-option): the banner of a return from Maya, the linked
 * account (email and card state) with an unlink button, or a link button; errors inline. Its own
 * flow (walletLink.machine); `onLinkChanged` tells the page which link, if any, it can pay with.
 */
import { leaveFor } from '../../lib/leave';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useRef } from 'react';
import { m } from '../../i18n';
import { connectWalletLink, WALLET_PROVIDER } from '../../machines/walletLink/walletLink.connect';
import { walletLinkMachine, type WalletLinkOutcome } from '../../machines/walletLink/walletLink.machine';
import { createWalletLinkActors } from '../../machines/subscribe/subscribe.actors';
import { button, muted } from '../../styles/ui.css';
import * as css from '../pages/subscribe.css';
import { notifyFor } from './bindings';
import { ErrorBox } from './ErrorBox';
import { useApi } from '../useApi';
import { useConnect, useFlow } from '../useFlow';

type PanelProps = ReturnType<typeof connectWalletLink>;

/**
 * Where focus goes when what it was on goes away: the banner of a return from Maya (the page was just
 * loaded, focus was nowhere), the Unlink button again after "Keep it linked", and the Link button once
 * the wallet is unlinked. Without it focus fell to the page body each time.
 */
function usePanelFocus(props: PanelProps) {
  const banner = useRef<HTMLParagraphElement>(null);
  const unlink = useRef<HTMLButtonElement>(null);
  const link = useRef<HTMLButtonElement>(null);
  const shown = props.confirmUnlink ? 'confirm' : props.linked ? 'linked' : props.loading || props.lookupFailed ? 'other' : 'unlinked';
  const before = useRef(shown);
  const bannerText = props.banner?.text ?? null;
  useEffect(() => {
    const lost = !document.activeElement || document.activeElement === document.body;
    if (bannerText && lost) banner.current?.focus();
  }, [bannerText]);
  useEffect(() => {
    const previous = before.current;
    before.current = shown;
    if (previous === 'confirm' && shown === 'linked') unlink.current?.focus();
    if ((previous === 'confirm' || previous === 'linked') && shown === 'unlinked') link.current?.focus();
  }, [shown]);
  return { bannerRef: banner, unlinkRef: unlink, linkRef: link };
}

/** 'Linked Maya account: {email}', the email in bold wherever the language puts it. */
function LinkedAccount({ email }: { email: string }) {
  const mark = '\u0000';
  const [before = '', after = ''] = m.linked_maya_account({ email: mark }).split(mark);
  return <p>{before}<strong>{email}</strong>{after}</p>;
}

export function WalletPanel({ linkStatus, returnPath, onLinkChanged, renewsOnWallet = false }: {
  linkStatus: WalletLinkOutcome | null;
  returnPath: string;
  onLinkChanged: (linkId: string | null) => void;
  /** The active subscription renews from this wallet: unlinking says what happens to renewals. */
  renewsOnWallet?: boolean;
}) {
  const api = useApi();
  const queryClient = useQueryClient();
  const actor = useFlow(walletLinkMachine, {
    actors: createWalletLinkActors(api, queryClient),
    actions: { notify: notifyFor('walletLink'), linkChanged: (_, { linkId }) => onLinkChanged(linkId), redirect: (_, { url }) => leaveFor(url) },
    input: { linkStatus, returnPath, renewsOnWallet },
  });
  const props = useConnect(actor, connectWalletLink);
  const questionId = useId();
  const { bannerRef, unlinkRef, linkRef } = usePanelFocus(props);
  return (
    <div className={css.panel} aria-label={m.maya_wallet()} role="group">
      {props.banner && <p ref={bannerRef} tabIndex={-1} className={css.banner[props.banner.tone]} role="status">{props.banner.text}</p>}
      {props.loading && <p role="status">{m.loading_your_maya_wallet()}</p>}
      {props.lookupFailed && (
        <>
          <ErrorBox message={props.error} />
          <button type="button" className={button.secondary} onClick={props.onRetry}>{m.try_again()}</button>
        </>
      )}
      {props.linked && (
        <>
          <LinkedAccount email={props.email ?? m.your_maya_account()} />
          <p className={muted}>{m.maya_account_status({ cardState: props.cardState ?? '' })}</p>
          <ErrorBox message={props.error} />
          {props.confirmUnlink ? (
            <div role="alertdialog" aria-labelledby={`${questionId}-q`} aria-describedby={`${questionId}-d`} className={css.panel}>
              <p id={`${questionId}-q`}><strong>{props.confirmUnlink.question}</strong></p>
              <p id={`${questionId}-d`}>{props.confirmUnlink.detail}</p>
              <button type="button" className={button.secondary} onClick={props.onConfirmUnlink}>{m.yes_unlink()}</button>{' '}
              <button type="button" className={button.primary} onClick={props.onCancelUnlink} autoFocus>{m.keep_it_linked()}</button>
            </div>
          ) : (
            <button ref={unlinkRef} type="button" className={button.secondary} onClick={props.onUnlink} disabled={props.unlinking} aria-busy={props.unlinking}>
              {props.unlinking ? m.unlinking() : m.unlink({ WALLET_PROVIDER })}
            </button>
          )}
        </>
      )}
      {!props.loading && !props.lookupFailed && !props.linked && (
        <>
          <p className={muted}>{m.link_your_maya_wallet_to_pay_for()}</p>
          <ErrorBox message={props.error} />
          <button ref={linkRef} type="button" className={button.primary} onClick={props.onLink} disabled={props.linking} aria-busy={props.linking}>
            {props.linking ? m.opening_maya() : m.link({ WALLET_PROVIDER })}
          </button>
        </>
      )}
    </div>
  );
}
