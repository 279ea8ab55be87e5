// The numbered migrations, in order. The database's user_version is the number applied last.
import type { Db } from '../db';
import * as m0001 from './0001-initial';
import * as m0002 from './0002-lifecycle';
import * as m0003 from './0003-notify-statuses';
import * as m0004 from './0004-notification-heads';
import * as m0005 from './0005-beyond-seed';
import * as m0006 from './0006-payer-hold';
import * as m0007 from './0007-faults';
import * as m0008 from './0008-reproduce';
import * as m0009 from './0009-retention';
import * as m0010 from './0010-payment-links';
import * as m0011 from './0011-own-marketplaces';
import * as m0012 from './0012-requests';
import * as m0013 from './0013-preapprovals';
import * as m0014 from './0014-card-objects';
import * as m0015 from './0015-requests-apart';
import * as m0016 from './0016-card-data';
import * as m0017 from './0017-journal-owners';
import * as m0019 from './0019-merchant-sites';
import * as m0020 from './0020-challenges-payout-notifications';
import * as m0021 from './0021-echoed-request-data';
import * as m0022 from './0022-state-checks';

export interface Migration {
  version: number;
  sql: string;
  /** The tables `sql` rebuilds: it runs with foreign keys off, and their references are checked. */
  rebuilds?: readonly string[];
  /** Work SQL alone cannot say (rebuilding a table from its stored definition); runs after `sql`, with foreign keys off. */
  up?: (db: Db) => void;
}

export const MIGRATIONS: readonly Migration[] = [
  { version: 1, sql: m0001.sql },
  { version: 2, sql: m0002.sql },
  { version: 3, sql: m0003.sql },
  { version: 4, sql: m0004.sql },
  { version: 5, sql: m0005.sql, rebuilds: m0005.rebuilds },
  { version: 6, sql: m0006.sql },
  { version: 7, sql: m0007.sql, up: m0007.up },
  { version: 8, sql: m0008.sql },
  { version: 9, sql: m0009.sql },
  { version: 10, sql: m0010.sql },
  { version: 11, sql: m0011.sql },
  { version: 12, sql: m0012.sql },
  { version: 13, sql: m0013.sql, up: m0013.up },
  { version: 14, sql: m0014.sql },
  { version: 15, sql: m0015.sql },
  { version: 16, sql: m0016.sql, up: m0016.up },
  { version: 17, sql: m0017.sql },
  { version: 19, sql: m0019.sql },
  { version: 20, sql: m0020.sql },
  { version: 21, sql: m0021.sql },
  { version: 22, sql: m0022.sql, up: m0022.up },
];
