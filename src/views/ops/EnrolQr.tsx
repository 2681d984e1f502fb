/**
 * The enrolment QR (the otpauth:// URL), drawn by `qrcode`. Its own lazy part of the back office: it is
 * needed once per operator, at enrolment, so the console's other pages never carry it.
 */
import { toDataURL } from 'qrcode';
import { useEffect, useState } from 'react';
import { m } from '../../i18n';
import { muted } from '../../styles/ui.css';
import * as css from './ops.css';

export default function EnrolQr({ url }: { url: string }) {
  const [image, setImage] = useState<{ url: string; data: string } | null>(null);
  useEffect(() => {
    let live = true;
    toDataURL(url, { margin: 1, width: 200 }).then((data) => { if (live) setImage({ url, data }); }, () => {});
    return () => { live = false; };
  }, [url]);
  return image?.url === url
    ? <img className={css.qr} src={image.data} alt={m.ops_qr_alt()} width={200} height={200} />
    : <p className={muted} role="status">{m.loading()}</p>;
}
