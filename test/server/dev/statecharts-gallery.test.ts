/** Issue 12: the statechart gallery is a dev route (same gate as the mailbox) and escapes what it shows. */
import { describe, expect, it } from 'vitest';
import { machines } from '../../../scripts/statechart-machines';
import { startTestServer } from '../support/helpers';

const STRANGER = '203.0.113.7';

describe('/dev/statecharts', () => {
  it('serves every flow, its scenarios and Mermaid to this machine only', async () => {
    const server = await startTestServer();
    const page = await server.app.request('/dev/statecharts');
    expect(page.status).toBe(200);
    const text = await page.text();
    expect(text.match(/<section id="/g)).toHaveLength(Object.keys(machines).length);
    expect(text).toContain('<h2 id="signUp-title">Sign up');
    expect(text).toContain('Scenarios (');
    // Mermaid's arrows are escaped in the page, so no markup of a description can break out.
    expect(text).toContain('[*] --&gt; routing');
    expect(text).toContain('<script src="/dev/statecharts/mermaid.min.js"></script>');
    const bundle = await server.app.request('/dev/statecharts/mermaid.min.js');
    expect(bundle.status).toBe(200);
    expect(bundle.headers.get('Content-Type')).toContain('javascript');

    for (const path of ['/dev/statecharts', '/dev/statecharts/mermaid.min.js', '/dev/statecharts/gallery.js']) {
      expect((await server.app.request(path, undefined, STRANGER)).status, path).toBe(404);
    }
    const off = await startTestServer({ devRoutes: 'off' });
    expect((await off.app.request('/dev/statecharts')).status).toBe(404);
  });

  it('finds flows by name or title, and escapes the query it echoes', async () => {
    const server = await startTestServer();
    const found = await (await server.app.request('/dev/statecharts?q=Forgot')).text();
    expect(found.match(/<section id="/g)).toEqual(['<section id="']);
    expect(found).toContain('id="recovery"');
    const none = await (await server.app.request('/dev/statecharts?q=%3Cscript%3Ex')).text();
    expect(none).toContain('No flow matches “&lt;script&gt;x”.');
    expect(none).not.toContain('<script>x');
  });
});
