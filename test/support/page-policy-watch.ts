import type { Page, Response } from 'playwright-core';

/**
 * Records what a page's Content-Security-Policy refuses, both as Chromium reports it on the console
 * ("Refused to …") and as the page's own securitypolicyviolation events, so a browser test fails on it.
 */
export async function watchPolicyViolations(page: Page): Promise<() => Promise<string[]>> {
  const refused: string[] = [];
  page.on('console', (message) => {
    if (/Refused to|Content Security Policy/i.test(message.text())) refused.push(message.text());
  });
  await page.addInitScript(() => {
    const seen: string[] = [];
    (globalThis as any).policyViolations = seen;
    (globalThis as any).document.addEventListener('securitypolicyviolation', (event: any) => {
      seen.push(`${event.violatedDirective} blocked ${event.blockedURI || 'inline'}`);
    });
  });
  return async () => [...refused, ...(await page.evaluate(() => (globalThis as any).policyViolations as string[]))];
}

/** The policy header a page was served with: the test proves nothing about a page served without one. */
export function policyOf(response: Response | null): string | undefined {
  return response?.headers()['content-security-policy'];
}
