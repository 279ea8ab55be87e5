// The numbered migrations, in order. The database's user_version is the number applied last.
import * as m0001 from './0001-initial';
import * as m0002 from './0002-lifecycle';
import * as m0003 from './0003-notify-statuses';
import * as m0004 from './0004-notification-heads';
import * as m0009 from './0009-retention';

export const MIGRATIONS: readonly { version: number; sql: string }[] = [
  { version: 1, sql: m0001.sql },
  { version: 2, sql: m0002.sql },
  { version: 3, sql: m0003.sql },
  { version: 4, sql: m0004.sql },
  { version: 9, sql: m0009.sql },
];
