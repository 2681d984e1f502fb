/**
 * The confirmation before signing devices out (issue 36): Ark UI's dialog, loaded when a Sign Out button
 * is pointed at, focused or pressed (scripts/bundle-budget.ts WHEN_ASKED), never with the account page.
 */
import type { RefObject } from 'react';
import { m } from '../../../i18n';
import type { connectDevices } from '../../../machines/devices/devices.connect';
import { button } from '../../../styles/ui.css';
import { ConfirmDialog } from '../../parts/ConfirmDialog';
import { browserLine, deviceName } from './deviceText';

export interface DeviceSignOutDialogProps {
  props: ReturnType<typeof connectDevices>;
  opener: RefObject<HTMLButtonElement | null>;
}

export default function DeviceSignOutDialog({ props, opener }: DeviceSignOutDialogProps) {
  const { confirming, target, signingOut, dialogMessage, onCancel, onConfirm } = props;
  const one = confirming === 'one' && target;
  return (
    <ConfirmDialog
      open={confirming !== null}
      pending={signingOut}
      title={one ? m.sign_out_device_title({ device: deviceName(target) }) : m.sign_out_others_title()}
      error={dialogMessage}
      onDismiss={onCancel}
      opener={opener}
      actions={
        <>
          <button type="button" className={button.secondary} onClick={onCancel} disabled={signingOut}>{m.keep_signed_in()}</button>
          <button type="button" className={button.danger} onClick={onConfirm} disabled={signingOut} aria-busy={signingOut}>
            {signingOut ? m.signing_out() : one ? m.sign_out() : m.sign_out_all_other_devices()}
          </button>
        </>
      }
    >
      <p>{one ? `${browserLine(target)}. ${m.sign_out_device_body()}` : m.sign_out_others_body()}</p>
    </ConfirmDialog>
  );
}
