// The Drift page in Chromium: never wider than the window, on a phone or a desk, long values included.
import type { Browser, Page } from 'playwright-core';
import { renderDriftPage } from '../../src/drift/drift.page';
import type { Difference } from '../../src/drift/differences';
import { HAVE_CHROMIUM, connect } from './browser';

const maybe = HAVE_CHROMIUM ? describe : describe.skip;
const call = { Method: 'GET', Path: `/v1/payments/3005042?${'x'.repeat(300)}`, JournalID: 1, At: '20260115100000' };
const diffs: Difference[] = [
  { Kind: 'value', Route: 'GET /v1/payments/{id}', Field: `Payment.${'Long'.repeat(40)}`, Upstream: 'y'.repeat(500), Shadow: { Deep: ['z'.repeat(300)] }, Count: 12, Call: call },
  { Kind: 'missing field', Route: 'GET /v1/payments/{id}', Field: 'Payment.Fraud', Upstream: null, Shadow: undefined, Count: 1, Call: call },
];

maybe('the Drift page in Chromium', () => {
  let browser: Browser;
  // One page for both widths, its window resized and the page set afresh: a new page is a new
  // renderer process, most of what a width cost.
  let page: Page;
  beforeAll(async () => {
    browser = await connect();
    page = await browser.newPage();
  }, 60_000);
  afterAll(async () => browser?.close());

  it.each([360, 1280])('is no wider than a window %i pixels wide', async (width) => {
    await page.setViewportSize({ width, height: 800 });
    await page.setContent(renderDriftPage(diffs));
    const [scroll, inner] = (await page.evaluate('[document.documentElement.scrollWidth, window.innerWidth]')) as [number, number];
    expect(inner).toBe(width);
    expect(scroll).toBeLessThanOrEqual(inner);
    expect(await page.locator('tr[data-kind] td.count').allInnerTexts()).toEqual(['12', '1']);
  });
});
