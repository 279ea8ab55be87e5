// What payments' stories need besides their own rows: the scenarios of replayed stories, and the
// TokenLifetime a cancel or expiry erased.
import type { Db } from './db';

export class StoriesRepo {
  private readonly scenarioStmt;
  private readonly saveScenarioStmt;
  private readonly lifetimeStmt;

  constructor(db: Db) {
    this.scenarioStmt = db.prepare<[string], { body: string }>('SELECT body FROM story_scenarios WHERE name = ?');
    this.saveScenarioStmt = db.prepare<[string, string]>('INSERT INTO story_scenarios (name, body) VALUES (?, ?)');
    this.lifetimeStmt = db.prepare<[number], { token_lifetime: number }>('SELECT token_lifetime FROM erased_token_lifetimes WHERE payment_id = ?');
  }

  /** The scenario file (JSON text) of a replayed story, kept under `name`. */
  scenario(name: string): string | undefined {
    return this.scenarioStmt.get(name)?.body;
  }

  saveScenario(name: string, body: string): void {
    this.saveScenarioStmt.run(name, body);
  }

  /** The TokenLifetime (minutes) the payment was created with, when a cancel or an expiry erased it. */
  erasedTokenLifetime(paymentId: number): number | undefined {
    return this.lifetimeStmt.get(paymentId)?.token_lifetime;
  }
}
