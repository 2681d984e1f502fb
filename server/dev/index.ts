/**
 * The dev modules the app mounts when dev routes are on (DEV_ROUTES, gated in app.ts): QA's mailbox,
 * login links, clock and reset (/dev), the statechart gallery (/dev/statecharts), and the local Maya
 * sandbox (/sandbox/maya). The entry (serve.ts) loads this module only then, so with DEV_ROUTES=false
 * none of it is even imported.
 */
import type { DevModules } from '../context';
import { sandboxLatency } from '../sandbox/api';
import { sandboxRoutes } from '../sandbox/routes';
import { devRoutes } from './dev.routes';
import { statechartRoutes } from './statecharts.routes';

export const devModules: DevModules = (services) => [
  { path: '/dev/statecharts', routes: statechartRoutes() },
  { path: '/dev', routes: devRoutes(services) },
  { path: '/sandbox', routes: sandboxRoutes({
      db: services.db, gatewayConfig: services.gatewayConfig, log: services.log, publicBaseUrl: services.publicBaseUrl,
      latencyMs: sandboxLatency(process.env.SANDBOX_LATENCY_MS),
    }),
  },
];
