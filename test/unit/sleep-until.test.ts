// Waiting for a sandbox time: the manual clock's own moves, or a timer that a fast clock shortens.
import { ManualClock, RealClock, sleepUntil } from '../../src/scheduler/clock';

describe('sleepUntil', () => {
  afterEach(() => jest.useRealTimers());

  it('on a real clock at speed 60 waits a sixtieth of the sandbox time in real time', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const clock = new RealClock(60);
    let done = false;
    void sleepUntil(clock, clock.now() + 6000).then(() => (done = true));
    jest.advanceTimersByTime(99);
    await Promise.resolve();
    expect(done).toBe(false);
    jest.advanceTimersByTime(1);
    await Promise.resolve();
    expect(done).toBe(true);
  });

  it('on a manual clock resolves when the clock is moved there, not in real time', async () => {
    const clock = new ManualClock(1000);
    let done = false;
    void sleepUntil(clock, 3000).then(() => (done = true));
    clock.advance(1999);
    await Promise.resolve();
    expect(done).toBe(false);
    clock.advance(1);
    await Promise.resolve();
    expect(done).toBe(true);
  });
});
