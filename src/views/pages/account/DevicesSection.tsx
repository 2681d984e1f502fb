/** Signed-in devices on /account (issue 36, product.md#devices): the devices chart's view. */
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import type { SignedInDevice } from '../../../api/schemas';
import { m } from '../../../i18n';
import { formatDateTime } from '../../../lib/dates';
import { createAccountActors } from '../../../machines/actors';
import { connectDevices } from '../../../machines/devices/devices.connect';
import { devicesMachine } from '../../../machines/devices/devices.machine';
import { button, card, muted } from '../../../styles/ui.css';
import { focusFromScript } from '../../focusFromScript';
import { lazyPage } from '../../lazyPage';
import { notifyFor } from '../../parts/bindings';
import { ErrorBox } from '../../parts/ErrorBox';
import { DialogLoading, OnDemand } from '../../parts/OnDemand';
import { useApi } from '../../useApi';
import { useConnect, useFlow } from '../../useFlow';
import * as css from '../account.css';
import * as dialogCss from '../subscription.css';
import type { DeviceSignOutDialogProps } from './DeviceSignOutDialog';
import { browserLine, deviceName, placeName } from './deviceText';

/** The confirmation's code comes when a Sign Out button is pointed at, focused or pressed. */
const DeviceSignOutDialog = lazyPage<DeviceSignOutDialogProps>(() => import('./DeviceSignOutDialog'));
const loadDialog = () => void DeviceSignOutDialog.load().catch(() => undefined);

function DeviceRow({ device, onSignOut }: { device: SignedInDevice; onSignOut: (id: string, button: HTMLButtonElement) => void }) {
  const name = deviceName(device);
  return (
    <li className={css.deviceRow}>
      <div className={css.deviceText}>
        <p className={css.deviceName}>
          {name}
          {device.current && <span className={css.deviceBadge}>{m.this_device()}</span>}
        </p>
        <p className={muted}>{browserLine(device)}</p>
        {device.place && <p className={muted}>{m.approximate_place({ place: placeName(device.place) })}</p>}
        <p className={muted}>{m.signed_in_on({ date: formatDateTime(device.signedInAt) })}</p>
        <p className={muted}>{m.last_used_on({ date: formatDateTime(device.lastUsedAt) })}</p>
      </div>
      {!device.current && (
        <button
          type="button" className={button.secondary} aria-label={m.sign_out_device_label({ device: `${name}, ${browserLine(device)}` })}
          onPointerOver={loadDialog} onFocus={loadDialog} onClick={(event) => onSignOut(device.id, event.currentTarget)}
        >
          {m.sign_out()}
        </button>
      )}
    </li>
  );
}

export default function DevicesSection() {
  const actor = useFlow(devicesMachine, {
    actors: createAccountActors(useApi(), useQueryClient()),
    actions: { notify: notifyFor('devices') },
  });
  const props = useConnect(actor, connectDevices);
  const { loading, failed, devices, hasOthers, listMessage, confirming } = props;
  // Focus returns to the button that opened the dialog (a device signed out: the list's own button, or the card).
  const opener = useRef<HTMLButtonElement | null>(null);
  const othersButton = useRef<HTMLButtonElement>(null);
  // The opener is gone once its device is signed out (its row) or no other is left (Sign Out All Other
  // Devices): focus goes to the card's heading instead of falling to the page (newcomer walk).
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    if (confirming || !opener.current || opener.current.isConnected) return;
    opener.current = null;
    if (heading.current) focusFromScript(heading.current);
  }, [confirming, devices]);

  return (
    <section className={`${card} ${css.wideCard}`} aria-labelledby="devices-title" aria-busy={loading}>
      <h2 id="devices-title" ref={heading} tabIndex={-1} className={css.cardTitle}>{m.signed_in_devices()}</h2>
      <p className={muted}>{m.signed_in_devices_intro()}</p>
      {loading && devices.length === 0 && <p role="status">{m.loading_devices()}</p>}
      {failed && (
        <>
          <ErrorBox message={listMessage} />
          <button type="button" className={button.secondary} onClick={props.onRetry}>{m.try_again()}</button>
        </>
      )}
      {!failed && devices.length > 0 && (
        <>
          <ul className={`${css.deviceList} ${css.deviceGrid}`} aria-label={m.signed_in_devices()}>
            {devices.map((device) => (
              <DeviceRow key={device.id} device={device} onSignOut={(id, button) => { opener.current = button; loadDialog(); props.onSignOut(id); }} />
            ))}
          </ul>
          {hasOthers ? (
            <button
              ref={othersButton} type="button" className={button.danger}
              onPointerOver={loadDialog} onFocus={loadDialog}
              onClick={() => { opener.current = othersButton.current; loadDialog(); props.onSignOutOthers(); }}
            >
              {m.sign_out_all_other_devices()}
            </button>
          ) : (
            <p className={muted}>{m.no_other_device_is_signed_in()}</p>
          )}
        </>
      )}
      <OnDemand
        part={DeviceSignOutDialog} fallback={confirming ? <DialogLoading className={dialogCss.backdrop} /> : null}
        resetKey={confirming} onFailed={props.onCancel}
      >
        {confirming && <DeviceSignOutDialog props={props} opener={opener} />}
      </OnDemand>
    </section>
  );
}
