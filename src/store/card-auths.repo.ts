// Card authentications: cards verified without a charge, by the credit card token each one made.
import type { Db } from './db';
import type { CardAuthRecord } from './records';

interface CardAuthRow {
  id: number;
  site_id: number;
  token: string;
  customer: string | null;
  billing_address: string | null;
  card: string;
  active: number;
  created_at: number;
  cancelled_at: number | null;
}

const parse = (s: string | null) => (s === null ? null : (JSON.parse(s) as Record<string, unknown>));
const toRecord = (r: CardAuthRow): CardAuthRecord => ({
  id: r.id,
  siteId: r.site_id,
  token: r.token,
  customer: parse(r.customer),
  billingAddress: parse(r.billing_address),
  card: JSON.parse(r.card) as Record<string, unknown>,
  active: r.active === 1,
  createdAt: r.created_at,
  cancelledAt: r.cancelled_at,
});

export class CardAuthsRepo {
  private prepared?: ReturnType<typeof prepareStatements>;

  constructor(private readonly db: Db) {}

  /** Prepared on first use: these tables came with a later migration than the store's first ones. */
  private get s() {
    return (this.prepared ??= prepareStatements(this.db));
  }

  insert(a: Omit<CardAuthRecord, 'id' | 'active' | 'cancelledAt'>): CardAuthRecord {
    const json = (v: unknown) => (v === null ? null : JSON.stringify(v));
    const id = (this.s.insertStmt.get({ ...a, customer: json(a.customer), billingAddress: json(a.billingAddress), card: JSON.stringify(a.card) }) as { id: number }).id;
    return { id, ...a, active: true, cancelledAt: null };
  }

  /** The site's card authentication of this token, or undefined (another site's is not seen). */
  byToken(token: string, siteId: number): CardAuthRecord | undefined {
    const row = this.s.byTokenStmt.get(token, siteId);
    return row && toRecord(row);
  }

  cancel(id: number, at: number): void {
    this.s.cancelStmt.run(at, id);
  }
}

function prepareStatements(db: Db) {
  return {
    insertStmt: db.prepare(
      `INSERT INTO card_authentications (site_id, token, customer, billing_address, card, active, created_at)
       VALUES (@siteId, @token, @customer, @billingAddress, @card, 1, @createdAt) RETURNING id`,
    ),
    byTokenStmt: db.prepare<[string, number], CardAuthRow>('SELECT * FROM card_authentications WHERE token = ? AND site_id = ?'),
    cancelStmt: db.prepare('UPDATE card_authentications SET active = 0, cancelled_at = ? WHERE id = ?'),
  };
}
