/**
 * The import rules of docs/architecture.md, checked by `npm run deps` (part of `npm test`).
 * Type-only imports count: a circle through types is still a circle for a reader.
 */
/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    { name: 'no-circular', severity: 'error', comment: 'No import circles anywhere.', from: {}, to: { circular: true } },
    {
      name: 'app-not-server', severity: 'error', comment: 'The app (src/) never imports the reference server.',
      from: { path: '^src/' }, to: { path: '^(server|scripts|test)/' },
    },
    {
      name: 'server-shares-only-contract-and-lib', severity: 'error',
      comment: 'The server shares the contract (src/api), pure helpers (src/lib) and the message catalogs (src/i18n) with the app, nothing else of it.',
      from: { path: '^server/' }, to: { path: '^src/', pathNot: '^src/(api|lib|i18n)/' },
    },
    {
      name: 'platform-knows-no-domain', severity: 'error', comment: 'platform/ is below every domain.',
      from: { path: '^server/platform/' }, to: { path: '^server/(identity|billing|gateway|sandbox|dev|ops)/|^server/[^/]+\\.ts$' },
    },
    {
      name: 'gateway-knows-no-billing', severity: 'error', comment: 'The Maya client imports nothing from billing (or any domain).',
      from: { path: '^server/gateway/' }, to: { path: '^server/(identity|billing|sandbox|dev|ops)/|^server/[^/]+\\.ts$' },
    },
    {
      name: 'sandbox-uses-gateway-and-platform', severity: 'error', comment: 'The fake Maya uses only gateway/ and platform/.',
      from: { path: '^server/sandbox/' }, to: { path: '^server/(identity|billing|dev|ops)/|^server/[^/]+\\.ts$' },
    },
    {
      name: 'no-sandbox-in-production', severity: 'error', comment: 'Production code never imports the fake Maya.',
      from: { path: '^server/', pathNot: '^server/(sandbox|dev)/|^server/(main|serve|startup)\\.ts$' }, to: { path: '^server/sandbox/' },
    },
    {
      name: 'dev-only-from-entry', severity: 'error', comment: 'Only the entry (main, serve, startup) and tests import dev/.',
      from: { path: '^(server|src|scripts)/', pathNot: '^server/dev/|^server/(main|serve|startup)\\.ts$' }, to: { path: '^server/dev/' },
    },
    {
      name: 'domains-not-composition', severity: 'error', comment: 'Domains do not import the app or the entry (app.ts, serve.ts, main.ts, startup.ts).',
      from: { path: '^server/(identity|billing|gateway|sandbox|platform|ops)/' }, to: { path: '^server/(app|serve|main|startup|settings)\\.ts$' },
    },
    {
      name: 'billing-routes-are-the-only-billing-http', severity: 'error', comment: 'Identity does not reach into billing beyond subscriptions (the User shows its plan) and erasure (deleting an account, issue 36).',
      from: { path: '^server/identity/' }, to: { path: '^server/billing/', pathNot: '^server/billing/(subscriptions|catalog|erasure)\\.ts$' },
    },
    {
      name: 'back-office-above-the-domains', severity: 'error',
      comment: 'The back office (server/ops) uses identity, billing, gateway and platform; none of them imports it (only the composition, dev and scripts do).',
      from: { path: '^server/(identity|billing|gateway|sandbox|platform)/' }, to: { path: '^server/ops/' },
    },
    { name: 'not-to-test', severity: 'error', from: { pathNot: '^test/' }, to: { path: '^test/' } },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^(node_modules|dist|\\.cache)/|^src/i18n/(paraglide|static)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    moduleSystems: ['es6', 'cjs'],
  },
};
