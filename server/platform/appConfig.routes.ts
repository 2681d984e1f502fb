import { Hono } from 'hono';
import { APP_STORE_URL, PLAY_STORE_URL, SOCIAL_LINKS, SUPPORT_URL } from '../../src/lib/product';

/** The embedded data protection officer's address (DPO_EMAIL unset): a sample, and the privacy page says so. */
export const SAMPLE_DPO_EMAIL = 'dpo@sinebisaya.example';

/** `/app-config.json` (product.md#app-config), same origin as the SPA. */
export function configRoutes(deps: { publicBaseUrl: string; dpo?: { email: string; sample: boolean } }) {
  const app = new Hono();
  app.get('/app-config.json', (c) =>
    c.json({
      baseUrl: deps.publicBaseUrl, // configured or the listening address, never the Host header
      appStoreUrl: APP_STORE_URL,
      playStoreUrl: PLAY_STORE_URL,
      supportUrl: SUPPORT_URL,
      socialLinks: SOCIAL_LINKS,
      // The data protection officer the privacy page names (DPO_EMAIL; `dpoSample`: the embedded sample).
      dpoEmail: deps.dpo?.email ?? SAMPLE_DPO_EMAIL,
      dpoSample: deps.dpo?.sample ?? true,
    }),
  );
  return app;
}
