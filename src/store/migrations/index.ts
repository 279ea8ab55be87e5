// The numbered migrations, in order. The database's user_version is the number applied last.
import * as m0001 from './0001-initial';

export const MIGRATIONS: readonly { version: number; sql: string }[] = [{ version: 1, sql: m0001.sql }];
