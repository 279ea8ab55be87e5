// Dashboard settings: NotificationURL and default scenario, saved through updateMerchant.
import { PLAIN, type World, makeWorld, snapshot } from '../helpers/world';
import { signedIn, submit } from './helpers';

describe('dashboard settings', () => {
  let w: World;
  beforeEach(() => (w = makeWorld()));
  afterEach(() => w.close());

  it('shows the current values and every scenario to choose from', async () => {
    const agent = await signedIn(w);
    const res = await agent.get('/dashboard/settings');
    expect(res.status).toBe(200);
    expect(res.text).toContain('name="NotificationURL"');
    for (const s of w.services.scenarios!.list()) expect(res.text).toContain(`<option value="${s.name}"`);
    expect(res.text).toContain('30202, 30203, 30204');
  });

  it('saves NotificationURL and the default scenario, then shows them', async () => {
    const agent = await signedIn(w);
    const res = await submit(agent, '/dashboard/settings', { NotificationURL: 'https://shop.example/notify?a=1&b=2', DefaultScenario: 'two-step' });
    expect(res.status).toBe(303);
    expect(res.headers.location).toBe('/dashboard/settings');
    const site = w.store.sites.get(30201)!;
    expect(site.notificationUrl).toBe('https://shop.example/notify?a=1&b=2');
    expect(site.defaultScenario).toBe('two-step');

    const page = await agent.get('/dashboard/settings');
    expect(page.text).toContain('Settings saved.');
    expect(page.text).toContain('value="https://shop.example/notify?a=1&amp;b=2"');
    expect(page.text).toContain('<option value="two-step" selected>');
    // the message is shown once
    expect((await agent.get('/dashboard/settings')).text).not.toContain('Settings saved.');
  });

  it('clears both with empty fields', async () => {
    const agent = await signedIn(w);
    await submit(agent, '/dashboard/settings', { NotificationURL: 'http://127.0.0.1:9999/hook', DefaultScenario: 'failed' });
    const res = await submit(agent, '/dashboard/settings', { NotificationURL: '', DefaultScenario: '' });
    expect(res.status).toBe(303);
    expect(w.store.sites.get(30201)!.notificationUrl).toBeNull();
    expect(w.store.sites.get(30201)!.defaultScenario).toBeNull();
  });

  it.each([
    ['not a url', 'NotificationURL is invalid'],
    ['ftp://shop.example/notify', 'NotificationURL is invalid'],
    ['javascript:alert(1)', 'NotificationURL is invalid'],
    ['https://', 'NotificationURL is invalid'],
    [`https://shop.example/${'x'.repeat(2100)}`, 'NotificationURL'],
  ])('refuses NotificationURL %#, with a readable 400 page, changing nothing', async (url, message) => {
    const agent = await signedIn(w);
    const before = snapshot(w.store);
    const res = await submit(agent, '/dashboard/settings', { NotificationURL: url, DefaultScenario: 'two-step' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('class="error"');
    expect(res.text).toContain(message);
    expect(snapshot(w.store)).toBe(before);
    expect(w.store.sites.get(30201)!.notificationUrl).toBeNull();
  });

  it('refuses an unknown scenario, changing nothing (not even a valid URL sent with it)', async () => {
    const agent = await signedIn(w);
    const before = snapshot(w.store);
    const res = await submit(agent, '/dashboard/settings', { NotificationURL: 'https://shop.example/n', DefaultScenario: '<b>nope</b>' });
    expect(res.status).toBe(400);
    expect(res.text).toContain('DefaultScenario: no scenario &quot;&lt;b&gt;nope&lt;/b&gt;&quot;');
    expect(snapshot(w.store)).toBe(before);
  });

  it('saves the plain site its own settings only', async () => {
    const agent = await signedIn(w, PLAIN);
    const res = await submit(agent, '/dashboard/settings', { NotificationURL: 'https://plain.example/n', DefaultScenario: '' });
    expect(res.status).toBe(303);
    expect(w.store.sites.get(30300)!.notificationUrl).toBe('https://plain.example/n');
    expect(w.store.sites.get(30201)!.notificationUrl).toBeNull();
  });
});
