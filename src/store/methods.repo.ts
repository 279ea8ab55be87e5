// The payment method catalogue.
import type { Flow } from '../domain/flows';
import type { Db } from './db';
import type { MethodCatalogue, MethodRecord } from './records';

interface MethodRow {
  method_id: number;
  name: string;
  flow: string;
  details_template: string | null;
  info: string | null;
}

const toRecord = (r: MethodRow): MethodRecord => ({
  methodId: r.method_id,
  name: r.name,
  flow: r.flow as Flow,
  detailsTemplate: r.details_template === null ? null : (JSON.parse(r.details_template) as Record<string, unknown>),
  catalogue: r.info === null ? null : (JSON.parse(r.info) as MethodCatalogue),
});

export class MethodsRepo {
  private readonly all;
  private readonly insertStmt;
  private readonly setCatalogueStmt;
  private readonly withoutCatalogueStmt;
  // The catalogue is read on every create and changes only at load: keep it in memory.
  private cache: Map<number, MethodRecord> | null = null;

  constructor(db: Db) {
    this.all = db.prepare<[], MethodRow>('SELECT * FROM methods ORDER BY method_id');
    this.insertStmt = db.prepare(
      'INSERT INTO methods (method_id, name, flow, details_template, info) VALUES (?, ?, ?, ?, ?)',
    );
    this.setCatalogueStmt = db.prepare('UPDATE methods SET info = ? WHERE method_id = ? AND info IS NULL');
    this.withoutCatalogueStmt = db.prepare<[], number>('SELECT method_id FROM methods WHERE info IS NULL ORDER BY method_id').pluck();
  }

  get(methodId: number): MethodRecord | undefined {
    if (!this.cache) this.cache = new Map(this.list().map((m) => [m.methodId, m]));
    return this.cache.get(methodId);
  }

  /** Forgets the cached catalogue (after the tables were emptied). */
  forget(): void {
    this.cache = null;
  }

  list(): MethodRecord[] {
    return this.all.all().map(toRecord);
  }

  insert(m: MethodRecord): void {
    this.insertStmt.run(
      m.methodId,
      m.name,
      m.flow,
      m.detailsTemplate === null ? null : JSON.stringify(m.detailsTemplate),
      m.catalogue === null ? null : JSON.stringify(m.catalogue),
    );
    this.cache = null;
  }

  /** The IDs of the methods that have no catalogue entry (a database made before methods had one). */
  withoutCatalogue(): number[] {
    return this.withoutCatalogueStmt.all();
  }

  /** Gives a method its catalogue entry when it has none yet (a database made before methods had one). */
  fillCatalogue(methodId: number, catalogue: MethodCatalogue): void {
    this.setCatalogueStmt.run(JSON.stringify(catalogue), methodId);
    this.cache = null;
  }
}
