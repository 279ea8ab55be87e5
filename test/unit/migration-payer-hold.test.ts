// Migration 6 brings a database of an older sandbox up to date: its pending steps are kept, with no
// planned time (nothing held them), and the table stays STRICT.
import Database from 'better-sqlite3';
import { migrate } from '../../src/store/db';
import { MIGRATIONS } from '../../src/store/migrations';
import { JobsRepo } from '../../src/store/jobs.repo';

describe('migration 6 (the payer hold)', () => {
  it('opens a schema-4 database with its steps, adds planned_due_at, and keeps the table strict', () => {
    const db = new Database(':memory:');
    for (const m of MIGRATIONS.filter((x) => x.version <= 4)) db.exec(m.sql);
    db.pragma('user_version = 4');
    db.pragma('foreign_keys = OFF');
    db.prepare(`INSERT INTO scenario_jobs (payment_id, step_index, action, due_at, state) VALUES (3005001, 0, 'authorize', 2000, 'pending')`).run();

    migrate(db);

    expect(db.pragma('user_version', { simple: true })).toBe(MIGRATIONS.at(-1)!.version);
    expect(new JobsRepo(db).ofPayment(3005001)).toMatchObject([{ action: 'authorize', dueAt: 2000, state: 'pending', plannedDueAt: null }]);
    expect(() => db.prepare(`UPDATE scenario_jobs SET planned_due_at = 'soon'`).run()).toThrow(/cannot store TEXT value in INTEGER column/);
    db.close();
  });
});
