/**
 * Product constants shared by the app and the reference server. Words a viewer reads (the tagline and the rest)
 * are catalog messages (messages/*.json), read while rendering; the product's name is a brand and stays.
 */
export const PRODUCT_NAME = 'Sine Bisaya';
export const DISPLAY_TIME_ZONE = 'Asia/Manila';
/** Asia/Manila is UTC+8 all year (no daylight saving time): card expiry months and billing periods use it. */
export const MANILA_OFFSET_MS = 8 * 60 * 60 * 1000;

/** Public links shared by the footer, the landing badges and the server's /app-config.json. */
export const SUPPORT_URL = 'https://www.facebook.com/sinebisaya';
export const APP_STORE_URL = 'https://apps.apple.com/app/sine-bisaya/id0000000000';
export const PLAY_STORE_URL = 'https://play.google.com/store/apps/details?id=ph.sinebisaya.app';
export const SOCIAL_LINKS = [
  { name: 'Facebook', url: 'https://www.facebook.com/sinebisaya' },
  { name: 'Instagram', url: 'https://www.instagram.com/sinebisaya' },
  { name: 'YouTube', url: 'https://www.youtube.com/@sinebisaya' },
] as const;
