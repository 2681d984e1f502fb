import { readdirSync, readFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { onDemandFiles, routeFiles, WHEN_ASKED } from '../../scripts/bundle-budget';

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

describe('a page\'s parts loaded when asked for (WHEN_ASKED)', () => {
  const manifest = {
    'index.html': { file: 'assets/index.js', isEntry: true, dynamicImports: ['src/views/pages/SubscriptionPage.tsx'] },
    '_frame.js': { file: 'assets/frame.js' },
    'src/views/pages/SubscriptionPage.tsx': { file: 'assets/Subscription.js', imports: ['index.html'], dynamicImports: ['src/views/parts/CancelDialog.tsx'] },
    'src/views/parts/CancelDialog.tsx': { file: 'assets/CancelDialog.js', imports: ['_frame.js', 'src/views/pages/SubscriptionPage.tsx'] },
  };

  it('are printed apart with what they add, not counted in the route', () => {
    expect(routeFiles(manifest).get('SubscriptionPage')!.sort()).toEqual(['assets/Subscription.js', 'assets/index.js']);
    expect(onDemandFiles(manifest).get('src/views/parts/CancelDialog.tsx')!.sort()).toEqual(['assets/CancelDialog.js', 'assets/frame.js']);
  });

  it('are never loaded when idle: no source hands them to useLoadedWhenIdle', () => {
    const sources = (dir: string): string[] => readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
      entry.isDirectory() ? sources(join(dir, entry.name)) : /\.tsx?$/.test(entry.name) ? [join(dir, entry.name)] : []);
    let importers = 0;
    for (const part of WHEN_ASKED) {
      const module = basename(part).replace(/\.tsx?$/, '');
      for (const file of sources('src')) {
        const text = readFileSync(file, 'utf8');
        const bound = new RegExp(String.raw`const (\w+) = lazyPage[^;]*import\('[^']*/${module}'\)`).exec(text);
        if (!bound) continue;
        importers += 1;
        expect(text, file).not.toMatch(new RegExp(String.raw`useLoadedWhenIdle\(${bound[1]}\b`));
      }
    }
    expect(importers).toBeGreaterThanOrEqual(WHEN_ASKED.length);
  });
});
