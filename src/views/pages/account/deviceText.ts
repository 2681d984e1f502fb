/** How a signed-in device is named in its row and in the sign-out dialog (issue 36). */
import type { SignedInDevice } from '../../../api/schemas';
import { intlLocale, m } from '../../../i18n';

const KIND = { mobile: m.device_kind_mobile, tablet: m.device_kind_tablet, desktop: m.device_kind_desktop, other: m.device_kind_other };

/** "Apple iPhone", else "Phone", "Computer"…: what the device is called. */
export function deviceName(device: SignedInDevice): string {
  return device.device ?? KIND[device.deviceType]();
}

/** "Chrome 131 on Windows 10", "Unknown browser". */
export function browserLine(device: SignedInDevice): string {
  const browser = device.browser ?? m.unknown_browser();
  return device.os ? m.browser_on_os({ browser, os: device.os }) : browser;
}

/** A country code (from a trusted proxy) in the viewer's language: "Philippines". */
export function placeName(code: string): string {
  try {
    return new Intl.DisplayNames([intlLocale(), 'en'], { type: 'region' }).of(code) ?? code;
  } catch {
    return code;
  }
}
