import { Hono } from 'hono';
import { APP_STORE_URL, PLAY_STORE_URL, SOCIAL_LINKS, SUPPORT_URL } from '../../src/lib/product';

/** `/app-config.json` (product.md#app-config), same origin as the SPA. */
export function configRoutes(deps: { publicBaseUrl: string }) {
  const app = new Hono();
  app.get('/app-config.json', (c) =>
    c.json({
      baseUrl: deps.publicBaseUrl, // configured or the listening address, never the Host header
      appStoreUrl: APP_STORE_URL,
      playStoreUrl: PLAY_STORE_URL,
      supportUrl: SUPPORT_URL,
      socialLinks: SOCIAL_LINKS,
    }),
  );
  return app;
}
