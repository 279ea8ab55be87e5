// The dashboard's payment page shows what a fault did to each notification, and the rules that can
// act on the payment, where QA looks for why a notification came twice.
import request from 'supertest';
import { shapeNotification } from '../../src/faults/notifications';
import { silentLogger } from '../../src/log';
import { createOutbox } from '../../src/notifications/outbox';
import { signedIn } from '../dashboard/helpers';
import { authorizedPayment, makeWorld } from '../helpers/world';

describe('dashboard payment page and faults', () => {
  it('shows the Fault of each notification and the rules that can act on the payment, not another merchant’s', async () => {
    const w = makeWorld();
    try {
      w.services.changes = createOutbox({ baseUrl: () => w.ctx.urls.baseUrl, defaultUrl: 'http://hook.example/n' });
      await request(w.api).post('/_sandbox/faults').send({ Channel: 'notifications', Match: { StatusID: 9 }, Action: { Duplicate: 2 } });
      await request(w.api).post('/_sandbox/faults').send({ Channel: 'api', Match: { SiteID: 30300 }, Action: { Status: 503 } });
      const p = await authorizedPayment(w);
      const [n] = w.store.notifications.list({ paymentId: p.ID });
      expect(shapeNotification(w.services, n!, silentLogger)).toBe(true); // as the worker does when it picks it

      const t = (await (await signedIn(w)).get(`/dashboard/payments/${p.ID}`)).text;
      expect(t).toContain('<th>State</th><th>Fault</th>');
      expect(t).toContain(`<td>${n!.id}</td><td>Authorized (9)</td><td></td><td>pending</td><td>sent 2 times by fault 1 (copies: notifications ${n!.id + 1})</td>`);
      expect(t).toContain(`<td>pending</td><td>copy 2 of 2 of notification ${n!.id}, by fault 1</td>`);
      expect(t).toContain('<h2>Fault rules</h2>');
      expect(t).toContain('<tr><td>1</td><td>notifications</td><td>StatusID 9</td><td>Duplicate 2</td>');
      expect(t).not.toContain('<tr><td>2</td><td>api</td>'); // the plain site's rule
    } finally {
      w.close();
    }
  });
});
