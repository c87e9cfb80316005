import { createExecutionContext, waitOnExecutionContext } from 'cloudflare:test';
import { DomUtils, parseDocument } from 'htmlparser2';
import { describe, expect, it } from 'vitest';
import worker from '../../../worker/index';
import { PAGE_POLICY, pagePolicy } from '../../../worker/platform/http/page-policy';
import { createApi, type TestEnv } from '../../support/worker-api';

const api = createApi('page_policy');
const PAGES = ['/admin/events', '/admin/moderation', '/admin/analytics', '/admin/ops', '/api/docs'];

/** What a page would need `unsafe-inline` (or a hash) for: inline scripts and styles, style attributes, event handler attributes. */
function inlineParts(html: string): string[] {
  const found: string[] = [];
  for (const element of DomUtils.findAll(() => true, parseDocument(html).children)) {
    if (element.name === 'style') found.push('<style>');
    if (element.name === 'script' && (!element.attribs.src || DomUtils.textContent(element).trim())) {
      found.push('inline <script>');
    }
    for (const name of Object.keys(element.attribs)) {
      if (name === 'style' || name.startsWith('on')) found.push(`${name}= on <${element.name}>`);
    }
  }
  return found;
}

/** The same-origin scripts and stylesheets a page loads. */
function assetsOf(html: string): string[] {
  const elements = DomUtils.findAll((e) => e.name === 'script' || e.name === 'link', parseDocument(html).children);
  return elements.map((e) => e.attribs.src ?? e.attribs.href!).filter(Boolean);
}

describe('the pages the Worker serves', () => {
  it('holds the policy to this origin, no framing and nothing inline', () => {
    const directives = PAGE_POLICY.split(';').map((d) => d.trim());
    expect(directives).toContain("default-src 'self'");
    expect(directives).toContain("frame-ancestors 'none'");
    expect(PAGE_POLICY).not.toMatch(/unsafe-|data:|\*/);
  });

  it('widens no page but the API reference, and that one for data: images alone', () => {
    expect(pagePolicy('/admin/events')).toBe(PAGE_POLICY);
    expect(pagePolicy('/admin/analytics')).toBe(PAGE_POLICY);
    expect(pagePolicy('/admin/ops')).toBe(PAGE_POLICY);
    const docs = pagePolicy('/api/docs')
      .split(';')
      .map((d) => d.trim());
    expect(docs.filter((d) => !PAGE_POLICY.includes(d))).toEqual(["img-src 'self' data:"]);
    expect(docs.join('; ')).not.toMatch(/unsafe-|\*/);
  });

  for (const path of PAGES) {
    it(`${path} sends the page policy, nosniff and no-referrer, and has nothing inline the policy would block`, async () => {
      const res = await api.fetch(path);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-security-policy')).toBe(pagePolicy(path));
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('referrer-policy')).toBe('no-referrer');
      const html = await res.text();
      expect(inlineParts(html)).toEqual([]);

      const assets = assetsOf(html);
      expect(assets.length).toBeGreaterThanOrEqual(2);
      for (const asset of assets) {
        expect(asset, 'same origin').toMatch(/^\/[^/]/);
        const served = await api.fetch(asset);
        expect(served.status, asset).toBe(200);
        expect(served.headers.get('content-type'), asset).toMatch(/^text\/(javascript|css); charset=utf-8$/);
        expect(served.headers.get('x-content-type-options'), asset).toBe('nosniff');
      }
    });
  }
});

describe('every other answer', () => {
  it('sends nosniff with JSON, errors included, and no page policy', async () => {
    for (const path of ['/api/openapi.json', '/api/no-such-route']) {
      const res = await api.fetch(path);
      expect(res.headers.get('content-type'), path).toMatch(/^application\/json/);
      expect(res.headers.get('x-content-type-options'), path).toBe('nosniff');
      expect(res.headers.get('content-security-policy'), path).toBeNull();
    }
  });

  it('sends nosniff on an answer passed through from the voice box, whose headers cannot be changed in place', async () => {
    // The stand-in has no WebSocket here, so it refuses the upgrade with 404, which the Worker hands back as is.
    const env = { ...api.env, VOICE_URL: `${(api.env as TestEnv).STAND_INS_URL}/voice/page-policy/elsewhere` };
    const ctx = createExecutionContext();
    const request = new Request('http://rider.test/voice/ws', {
      headers: { upgrade: 'websocket', connection: 'Upgrade', 'sec-websocket-version': '13' },
    });
    const res = await worker.fetch(request as Request<unknown, IncomingRequestCfProperties>, env, ctx);
    await waitOnExecutionContext(ctx);
    expect(res.status).toBe(404);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
  });
});
