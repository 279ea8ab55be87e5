// Every dashboard page fits the window, on a laptop (1280 px) and a phone (375 px): nothing wider than
// the window, no column cut off, the times of the requests on one line each.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import request from 'supertest';
import { type Sandbox, startSandbox } from '../../src/main';
import { MARKETPLACE, START, basic, paymentBody } from '../helpers/world';
import { HAVE_CHROMIUM, connect } from './browser';

const auth = basic(MARKETPLACE.SiteID, MARKETPLACE.APIKey);
const maybe = HAVE_CHROMIUM ? describe : describe.skip;
const WIDTHS = [1280, 375];

interface Cell {
  atLines: number;
  bodyInside: boolean;
  bodyScrolls: boolean;
}

interface Overflow {
  scrollWidth: number;
  innerWidth: number;
  wide: string[];
}

maybe('the dashboard’s pages fit the window, in Chromium', () => {
  let browser: Browser;
  let sb: Sandbox;
  // One page for both widths: a new page is a new renderer process. Each width signs in afresh (its
  // cookies cleared) in a window of its own width.
  let context: BrowserContext;
  let page: Page;

  beforeAll(async () => {
    browser = await connect();
    sb = await startSandbox({ port: 0, cardPort: 0, db: ':memory:', clock: 'manual', startTime: START, quiet: true });
    context = await browser.newContext();
    page = await context.newPage();
  }, 60_000);
  afterAll(async () => {
    await browser?.close();
    await sb?.stop();
  });

  /** A day's work of a marketplace: long bodies, refusals with several reasons, a near miss, a card payment. */
  async function work(n: number): Promise<number[]> {
    const long = paymentBody({ MerchantTransactionID: `order-${n}-${'x'.repeat(60)}`, Description: 'A description long enough to wrap somewhere '.repeat(4) });
    const p = (await request(sb.baseUrl).post('/v1/payments').set('Authorization', auth).send(long)).body.Payment;
    await request(sb.baseUrl).post(`/_sandbox/payments/${p.ID}/events`).send({ Event: 'authorize' }).expect(200);
    await request(sb.baseUrl).post(`/v1/payments/${p.ID}/capture`).set('Authorization', auth).expect(200);
    await request(sb.baseUrl).post(`/v1/payments/${p.ID}/capture`).set('Authorization', auth).expect(400);
    await request(sb.baseUrl).post('/v1/payments').set('Authorization', auth).send({ Payment: { Amount: 'x', Currency: 'nope' } }).expect(400);
    await request(sb.baseUrl).post('/v1/payment').set('Authorization', auth).send({}).expect(404);
    const card = await request(sb.cardBaseUrl)
      .post('/v1/payments')
      .set('Authorization', auth)
      .send({
        Payment: {
          MerchantTransactionID: `widths-card-${n}`,
          Amount: 9000,
          Currency: 'EUR',
          Capture: false,
          Card: { HolderName: 'John Doe', Number: '4111111111111111', ExpirationMonth: '02', ExpirationYear: '2030' },
        },
      });
    expect(card.status).toBe(201);
    return [p.ID, card.body.Payment.ID];
  }

  /** Signs in on the sign-in page, where the page is. */
  const signIn = async (page: Page) => {
    await page.fill('input[name="SiteID"]', String(MARKETPLACE.SiteID));
    await page.fill('input[name="APIKey"]', MARKETPLACE.APIKey);
    await Promise.all([page.waitForURL('**/dashboard'), page.getByRole('button', { name: 'Sign in', exact: true }).click()]);
  };

  /** How far the page is wider than its window, and what sticks out of the window itself (not out of a box that scrolls). */
  const overflow = (page: Page) =>
    page.evaluate<Overflow>(`(() => {
      const width = window.innerWidth;
      const boxed = (e) => {
        for (let a = e.parentElement; a && a !== document.body; a = a.parentElement) if (/auto|scroll|hidden/.test(getComputedStyle(a).overflowX)) return true;
        return false;
      };
      const wide = [...document.querySelectorAll('body *')]
        .filter((e) => e.getBoundingClientRect().right > width + 0.5 && !boxed(e))
        .slice(0, 3)
        .map((e) => e.tagName.toLowerCase() + '.' + e.className);
      return { scrollWidth: document.documentElement.scrollWidth, innerWidth: width, wide };
    })()`);

  const unfold = (page: Page) => page.evaluate(`document.querySelectorAll('details').forEach((d) => (d.open = true))`);

  /** Each row of the requests table: on how many lines its time is, and whether its body is whole. */
  const requestCells = (page: Page) =>
    page.evaluate<Cell[]>(`[...document.querySelectorAll('table.requests tbody tr')].map((r) => {
      const at = r.querySelector('td');
      const lines = document.createRange();
      lines.selectNodeContents(at);
      const pre = r.querySelector('pre.body');
      const box = pre && pre.getBoundingClientRect();
      return {
        atLines: new Set([...lines.getClientRects()].map((b) => Math.round(b.top))).size,
        // A body is whole when it is inside the window and wraps rather than runs on out of sight.
        bodyInside: !box || (box.left >= 0 && box.right <= window.innerWidth),
        bodyScrolls: pre ? pre.scrollWidth > pre.clientWidth + 1 : false,
      };
    })`);

  it.each(WIDTHS)('at %i px: every page, its requests’ times on one line and their bodies whole', async (width) => {
    const [paymentId, cardId] = await work(width);
    await context.clearCookies();
    await page.setViewportSize({ width, height: 900 });
    await page.goto(`${sb.baseUrl}/dashboard/login`);
    expect(await page.evaluate('window.innerWidth')).toBe(width);
    const pages = new Map<string, Awaited<ReturnType<typeof overflow>>>([['/dashboard/login', await overflow(page)]]);
    await signIn(page);
    // The pages the header links to, the payments' own pages, and a page that is not there.
    const nav = await page.evaluate<string[]>(`[...document.querySelectorAll('header a')].map((a) => new URL(a.href).pathname)`);
    expect(nav.length).toBeGreaterThanOrEqual(5);
    expect(nav).toContain('/dashboard/requests');
    let cells: Cell[] = [];
    for (const path of [...nav, `/dashboard/payments/${paymentId}`, `/dashboard/payments/${cardId}`, '/dashboard?startDate=yesterday', '/dashboard/nowhere']) {
      await page.goto(`${sb.baseUrl}${path}`);
      // Bodies unfolded: the widest a page gets.
      await unfold(page);
      pages.set(path, await overflow(page));
      // The requests page's rows read where the page is, unfolded, rather than on a second visit.
      if (path === '/dashboard/requests') cells = await requestCells(page);
    }
    expect([...pages].filter(([, o]) => o.scrollWidth > o.innerWidth || o.wide.length > 0)).toEqual([]);
    expect(pages.size).toBeGreaterThanOrEqual(10);

    expect(cells.length).toBeGreaterThan(3);
    for (const c of cells) expect(c).toEqual({ atLines: 1, bodyInside: true, bodyScrolls: false });
  }, 90_000);
});
