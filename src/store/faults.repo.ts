// Fault rules as the control API defines them, with their hits: kept in the database so that they
// survive a restart and are part of a copy of it.
import type { Db } from './db';

export interface FaultRecord {
  id: number;
  channel: 'api' | 'notifications';
  /** The rule's Match and Action as JSON, as they were accepted. */
  match: string;
  action: string;
  times: number | null;
  probability: number;
  hits: number;
  /** Random numbers drawn for its Probability so far: the next is drawn from where they stopped. */
  draws: number;
  createdAt: number;
  /** The marketplace that owns the rule (made through its own routes); null: the sandbox's. */
  ownerSiteId?: number | null;
}

interface FaultRow {
  id: number;
  channel: 'api' | 'notifications';
  match_json: string;
  action_json: string;
  times: number | null;
  probability: number;
  hits: number;
  draws: number;
  created_at: number;
  owner_site_id: number | null;
}

const toRecord = (r: FaultRow): FaultRecord => ({
  id: r.id,
  channel: r.channel,
  match: r.match_json,
  action: r.action_json,
  times: r.times,
  probability: r.probability,
  hits: r.hits,
  draws: r.draws,
  createdAt: r.created_at,
  ownerSiteId: r.owner_site_id,
});

export class FaultsRepo {
  private readonly insertStmt;
  private readonly allStmt;
  private readonly byIdStmt;
  private readonly countStmt;
  private readonly deleteStmt;
  private readonly deleteAllStmt;
  private readonly ownedStmt;
  private readonly allOwnedStmt;

  constructor(db: Db) {
    this.insertStmt = db.prepare(
      `INSERT INTO faults (channel, match_json, action_json, times, probability, created_at, owner_site_id)
       VALUES (@channel, @match, @action, @times, @probability, @createdAt, @ownerSiteId)`,
    );
    this.allStmt = db.prepare<[], FaultRow>('SELECT * FROM faults ORDER BY id');
    this.byIdStmt = db.prepare<[number], FaultRow>('SELECT * FROM faults WHERE id = ?');
    this.countStmt = db.prepare('UPDATE faults SET hits = ?, draws = ? WHERE id = ?');
    this.deleteStmt = db.prepare('DELETE FROM faults WHERE id = ?');
    this.deleteAllStmt = db.prepare('DELETE FROM faults');
    this.ownedStmt = db.prepare<[number]>('SELECT count(*) FROM faults WHERE owner_site_id = ?').pluck();
    this.allOwnedStmt = db.prepare<[]>('SELECT count(*) FROM faults WHERE owner_site_id IS NOT NULL').pluck();
  }

  /** How many rules marketplace `owner` owns; null: how many all marketplaces own together. */
  countOwned(owner: number | null): number {
    return (owner === null ? this.allOwnedStmt.get() : this.ownedStmt.get(owner)) as number;
  }

  insert(f: Omit<FaultRecord, 'id' | 'hits' | 'draws'>): number {
    return Number(this.insertStmt.run({ ...f, ownerSiteId: f.ownerSiteId ?? null }).lastInsertRowid);
  }

  all(): FaultRecord[] {
    return this.allStmt.all().map(toRecord);
  }

  get(id: number): FaultRecord | undefined {
    const row = this.byIdStmt.get(id);
    return row && toRecord(row);
  }

  /** Its counts after a match: hits (times it acted) and draws (random numbers used). */
  count(id: number, hits: number, draws: number): void {
    this.countStmt.run(hits, draws, id);
  }

  delete(id: number): boolean {
    return this.deleteStmt.run(id).changes > 0;
  }

  deleteAll(): void {
    this.deleteAllStmt.run();
  }
}
