// Stopping the proxy right after the real service's last notification: the shadow's work for it runs
// and the shadow's notification is paired before the proxy is gone, so no difference is left behind.
import { paymentBody } from '../helpers/world';
import { type Rig, startRig } from './rig';

describe('drift proxy: stopping', () => {
  let rig: Rig;
  beforeEach(async () => (rig = await startRig()));
  afterEach(() => rig.close());

  it('pairs the notifications still on their way when it is stopped', async () => {
    const made = await rig.api('post', '/v1/payments', paymentBody()).expect(201);
    await rig.event(made.body.Payment.ID, 'authorize');
    // The real service's notification reaches the hook; the proxy is stopped at once, without waiting for the shadow.
    await rig.upstream.scheduler.worker.deliverDue();
    expect(rig.integration.received.length).toBeGreaterThan(0);
    await rig.drift.close();
    expect(rig.drift.report.list()).toEqual([]);
  });
});
