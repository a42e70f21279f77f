import { readdirSync, readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { join } from 'node:path';
import { startHarness, type Harness } from '../../test/harness';

// The test setup runs `npm run build`, which bundles the console into dist/apps/console.
const BUILT = join(__dirname, '../../../../dist/apps/console');

/** A GET with the path sent exactly as written (fetch would resolve `..` before sending). */
function rawGet(baseUrl: string, path: string): Promise<{ status: number; type: string; body: string }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${baseUrl}${path}`, { method: 'GET', path }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, type: String(res.headers['content-type']), body }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the admin API serving the web console', () => {
  let h: Harness;
  const index = readFileSync(join(BUILT, 'index.html'), 'utf8');

  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(async () => {
    await h?.stop();
  });

  it('answers / with the console page, never cached', async () => {
    const res = await h.request('GET', '/');
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    expect(res.text).toBe(index);
  });

  it('forbids every site to frame the console, and lets its pages load only their own files and the API', async () => {
    const res = await h.request('GET', '/');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("default-src 'self'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-frame-options']).toBe('DENY');
    // The built page holds no inline script or style the policy would block.
    expect(index).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>|<style|\sstyle=/);
  });

  it("answers the console's own routes with the page, so a reload keeps the view", async () => {
    const res = await h.request('GET', '/devices/a0:85:e3:00:00:01?tab=calls');
    expect(res.status).toBe(200);
    expect(res.text).toBe(index);
  });

  it('serves hashed assets to be cached for good', async () => {
    const script = readdirSync(join(BUILT, 'assets')).find((f) => f.endsWith('.js'));
    expect(script).toBeDefined();
    const res = await h.request('GET', `/assets/${script}`);
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(res.headers['cache-control']).toBe('public, max-age=31536000, immutable');
  });

  it('leaves unknown API paths to the API, which answers 404 in JSON', async () => {
    const res = await h.request('GET', '/api/v1/no-such-thing');
    expect(res.status).toBe(404);
    expect(res.headers['content-type']).toMatch(/json/);
  });

  it('answers /.well-known/ paths it does not serve with a JSON 404, never the console page', async () => {
    for (const path of [
      '/.well-known/oauth-protected-resource',
      '/.well-known/oauth-protected-resource/mcp',
      '/.well-known/oauth-authorization-server',
      '/.well-known',
    ]) {
      const res = await h.request('GET', path);
      expect(res.status).toBe(404);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(res.body).toMatchObject({ statusCode: 404 });
    }
  });

  it('never serves a file from outside the bundle, however the path is escaped', async () => {
    for (const path of ['/..%2f..%2f..%2fpackage.json', '/%2e%2e/%2e%2e/%2e%2e/package.json', '/%E0%A4%A']) {
      const res = await rawGet(h.baseUrl, path);
      expect(res.status).toBeLessThan(500);
      expect(res.body).not.toContain('"name": "voice-fleet"');
    }
  });
});
