import { describe, expect, it } from 'vitest';
import { onDemandFiles, routeFiles } from '../../scripts/bundle-budget';

describe('routeFiles', () => {
  it('counts, per lazy page, the entry chain plus the page chunk, its imports and its own lazy parts; not the inspector', () => {
    const routes = routeFiles({
      'index.html': {
        file: 'assets/index.js', isEntry: true, imports: ['_shared.js'],
        dynamicImports: ['src/views/pages/LoginPage.tsx', 'src/views/pages/TermsPage.tsx', 'src/views/ToastArea.tsx', 'node_modules/@statelyai/inspect/dist/index.mjs'],
      },
      '_shared.js': { file: 'assets/shared.js', imports: ['index.html'] },
      '_zod.js': { file: 'assets/zod.js' },
      '_step.js': { file: 'assets/step.js' },
      'src/views/pages/LoginPage.tsx': { file: 'assets/Login.js', imports: ['_shared.js', '_zod.js'], dynamicImports: ['_step.js'], css: ['assets/Login.css'] },
      'src/views/pages/TermsPage.tsx': { file: 'assets/Terms.js', imports: ['index.html'] },
      'src/views/ToastArea.tsx': { file: 'assets/ToastArea.js' },
      'node_modules/@statelyai/inspect/dist/index.mjs': { file: 'assets/inspect.js' },
    });
    expect([...routes.keys()].sort()).toEqual(['LoginPage', 'TermsPage']);
    expect(routes.get('LoginPage')!.sort()).toEqual(['assets/Login.js', 'assets/index.js', 'assets/shared.js', 'assets/step.js', 'assets/zod.js']);
    expect(routes.get('TermsPage')!.sort()).toEqual(['assets/Terms.js', 'assets/index.js', 'assets/shared.js']);
  });
});

describe('onDemandFiles', () => {
  it("lists what a route's chunks load later (not pages, not a page's own lazy part, not the inspector), with what each adds", () => {
    const onDemand = onDemandFiles({
      'index.html': {
        file: 'assets/index.js', isEntry: true,
        dynamicImports: ['src/views/pages/RegisterPage.tsx', 'src/views/ToastArea.tsx', 'node_modules/@statelyai/inspect/dist/index.mjs'],
      },
      '_flow.js': { file: 'assets/flow.js', imports: ['index.html'], dynamicImports: ['src/api/commonPasswordList.ts', 'src/views/pages/RegisterPage.tsx'] },
      '_step.js': { file: 'assets/step.js' },
      'src/views/pages/RegisterPage.tsx': { file: 'assets/Register.js', imports: ['_flow.js'], dynamicImports: ['_step.js'] },
      'src/api/commonPasswordList.ts': { file: 'assets/list.js', imports: ['_flow.js'] },
      'src/views/ToastArea.tsx': { file: 'assets/ToastArea.js', imports: ['_flow.js'] },
      'node_modules/@statelyai/inspect/dist/index.mjs': { file: 'assets/inspect.js' },
    });
    expect([...onDemand.keys()].sort()).toEqual(['src/api/commonPasswordList.ts', 'src/views/ToastArea.tsx']);
    expect(onDemand.get('src/api/commonPasswordList.ts')).toEqual(['assets/list.js']); // the flow chunk that asks is already there
    expect(onDemand.get('src/views/ToastArea.tsx')!.sort()).toEqual(['assets/ToastArea.js', 'assets/flow.js']);
  });
});
