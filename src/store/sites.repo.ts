// Sites (merchant accounts): marketplaces, their linked split sites, and plain sites.
import type { Db } from './db';
import type { Json, SiteRecord } from './records';

/** What the merchant sites API keeps of a site beyond its credentials (merchant_sites). */
export interface SiteProfile {
  /** null: the site was made otherwise (fixtures, the control API) and changed through the API later. */
  createdAt: number | null;
  url: string | null;
  active: boolean;
  alias: string | null;
  ipList: string | null;
  details: Json | null;
  deletedAt: number | null;
}

interface ProfileRow {
  created_at: number | null;
  url: string | null;
  active: number;
  alias: string | null;
  ip_list: string | null;
  details: string | null;
  deleted_at: number | null;
}

interface SiteRow {
  site_id: number;
  api_key: string | null;
  name: string;
  marketplace_site_id: number | null;
  notification_url: string | null;
  default_scenario: string | null;
  notify_statuses: string | null;
  methods: string | null;
}

const toRecord = (r: SiteRow): SiteRecord => ({
  siteId: r.site_id,
  apiKey: r.api_key,
  name: r.name,
  marketplaceSiteId: r.marketplace_site_id,
  notificationUrl: r.notification_url,
  defaultScenario: r.default_scenario,
  notifyStatuses: r.notify_statuses === null ? null : (JSON.parse(r.notify_statuses) as number[]),
  methods: r.methods === null ? null : (JSON.parse(r.methods) as number[]),
});

export class SitesRepo {
  private readonly byId;
  private readonly all;
  private readonly linked;
  private readonly insertStmt;
  private readonly setUrl;
  private readonly setScenario;
  private readonly setNotify;
  private readonly setMethodsStmt;
  private readonly profileStmt;
  private readonly saveProfileStmt;
  private readonly setKeyStmt;
  private readonly setNameStmt;
  private readonly madeStmt;
  private readonly linkedCache = new Map<number, SiteRecord[]>();
  private readonly siteCache = new Map<number, SiteRecord>();

  constructor(db: Db) {
    this.byId = db.prepare<[number], SiteRow>('SELECT * FROM sites WHERE site_id = ?');
    this.all = db.prepare<[], SiteRow>('SELECT * FROM sites ORDER BY site_id');
    // A site deleted through the merchant sites API is no longer one a split may name.
    this.linked = db.prepare<[number], SiteRow>(
      'SELECT * FROM sites WHERE marketplace_site_id = ? AND site_id NOT IN (SELECT site_id FROM merchant_sites WHERE deleted_at IS NOT NULL) ORDER BY site_id',
    );
    this.profileStmt = db.prepare<[number], ProfileRow>('SELECT * FROM merchant_sites WHERE site_id = ?');
    this.madeStmt = db
      .prepare<[number], number>('SELECT count(*) FROM sites s JOIN merchant_sites m ON m.site_id = s.site_id WHERE s.marketplace_site_id = ?')
      .pluck();
    this.saveProfileStmt = db.prepare(
      `INSERT INTO merchant_sites (site_id, created_at, url, active, alias, ip_list, details, deleted_at)
       VALUES (@siteId, @createdAt, @url, @active, @alias, @ipList, @details, @deletedAt)
       ON CONFLICT (site_id) DO UPDATE SET created_at = excluded.created_at, url = excluded.url, active = excluded.active,
         alias = excluded.alias, ip_list = excluded.ip_list, details = excluded.details, deleted_at = excluded.deleted_at`,
    );
    this.setKeyStmt = db.prepare('UPDATE sites SET api_key = ? WHERE site_id = ?');
    this.setNameStmt = db.prepare('UPDATE sites SET name = ? WHERE site_id = ?');
    this.insertStmt = db.prepare(
      `INSERT INTO sites (site_id, api_key, name, marketplace_site_id, notification_url, default_scenario, notify_statuses, methods)
       VALUES (@siteId, @apiKey, @name, @marketplaceSiteId, @notificationUrl, @defaultScenario, @notifyStatuses, @methods)`,
    );
    this.setMethodsStmt = db.prepare('UPDATE sites SET methods = ? WHERE site_id = ?');
    this.setUrl = db.prepare('UPDATE sites SET notification_url = ? WHERE site_id = ?');
    this.setScenario = db.prepare('UPDATE sites SET default_scenario = ? WHERE site_id = ?');
    this.setNotify = db.prepare('UPDATE sites SET notify_statuses = ? WHERE site_id = ?');
  }

  /** Read on every request (authentication) and notification: cached until a site changes. */
  get(siteId: number): SiteRecord | undefined {
    let site = this.siteCache.get(siteId);
    if (!site) {
      const row = this.byId.get(siteId);
      if (!row) return undefined;
      site = toRecord(row);
      this.siteCache.set(siteId, site);
    }
    return site;
  }

  list(): SiteRecord[] {
    return this.all.all().map(toRecord);
  }

  /** Read on every split request, changed only by fixtures and resets: cached per marketplace. */
  /** How many sites the merchant sites API made for a marketplace, deleted ones included (each keeps its row). */
  madeFor(marketplaceSiteId: number): number {
    return this.madeStmt.get(marketplaceSiteId)!;
  }

  linkedTo(marketplaceSiteId: number): SiteRecord[] {
    let linked = this.linkedCache.get(marketplaceSiteId);
    if (!linked) {
      linked = this.linked.all(marketplaceSiteId).map(toRecord);
      this.linkedCache.set(marketplaceSiteId, linked);
    }
    return linked;
  }

  insert(site: Omit<SiteRecord, 'notifyStatuses' | 'methods'> & { notifyStatuses?: number[] | null; methods?: number[] | null }): void {
    this.insertStmt.run({
      ...site,
      notifyStatuses: site.notifyStatuses ? JSON.stringify(site.notifyStatuses) : null,
      methods: site.methods ? JSON.stringify(site.methods) : null,
    });
    this.forget();
  }

  /** Counts the changes to sites: what was read of them before a change is stale after it (credentials). */
  generation = 0;

  /** Forgets cached reads (after the tables were emptied). */
  forget(): void {
    this.generation++;
    this.linkedCache.clear();
    this.siteCache.clear();
  }

  setNotificationUrl(siteId: number, url: string | null): void {
    this.setUrl.run(url, siteId);
    this.forget();
  }

  setNotifyStatuses(siteId: number, statuses: number[] | null): void {
    this.setNotify.run(statuses === null ? null : JSON.stringify(statuses), siteId);
    this.forget();
  }

  /** The methods assigned to a site; null assigns every method. */
  setMethods(siteId: number, methods: number[] | null): void {
    this.setMethodsStmt.run(methods === null ? null : JSON.stringify(methods), siteId);
    this.forget();
  }

  setDefaultScenario(siteId: number, scenario: string | null): void {
    this.setScenario.run(scenario, siteId);
    this.forget();
  }

  /** The site's merchant sites API record; undefined for a site made otherwise (fixtures, control API). */
  profile(siteId: number): SiteProfile | undefined {
    const r = this.profileStmt.get(siteId);
    if (!r) return undefined;
    return {
      createdAt: r.created_at,
      url: r.url,
      active: r.active === 1,
      alias: r.alias,
      ipList: r.ip_list,
      details: r.details === null ? null : (JSON.parse(r.details) as Json),
      deletedAt: r.deleted_at,
    };
  }

  saveProfile(siteId: number, p: SiteProfile): void {
    this.saveProfileStmt.run({
      siteId,
      createdAt: p.createdAt,
      url: p.url,
      active: p.active ? 1 : 0,
      alias: p.alias,
      ipList: p.ipList,
      details: p.details === null ? null : JSON.stringify(p.details),
      deletedAt: p.deletedAt,
    });
    this.forget();
  }

  /** A new key (null: none, the site can no longer authenticate). The old one stops working at once. */
  setApiKey(siteId: number, apiKey: string | null): void {
    this.setKeyStmt.run(apiKey, siteId);
    this.forget();
  }

  setName(siteId: number, name: string): void {
    this.setNameStmt.run(name, siteId);
    this.forget();
  }
}
