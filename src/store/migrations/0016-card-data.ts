// Card data out of request journal entries written before it was recognised by what it is
// (domain/card-data.ts): every entry's query string and request body, and the answer of an entry that
// refused or never answered, masked as they are when written now. Here, a copy's requests_kept (a
// snapshot, or an older database's entries on their way to the journal's file); the journal's own
// file is scrubbed once when it is attached (journal-file.ts), the snapshot files at rest by
// scrubCopyFile (copies.ts).
import { maskCardData, maskQuery } from '../../domain/card-data';
import type { Db } from '../db';

export const sql = '';

export function up(db: Db): void {
  scrubEntries(db, 'main.requests_kept');
}

/** Rows read and written at a time: an entry holds up to 128 KiB of bodies. By rowid: a marketplace's copy made its table with CREATE TABLE … AS, which makes id a plain column. */
const PAGE = 500;

interface Row {
  id: number;
  query: string | null;
  request_body: string | null;
  response_body: string | Buffer | null;
  status: number | null;
}

/** Masks the card data of every entry of `table` (a journal's table, however named); how many entries changed. */
export function scrubEntries(db: Db, table: string): number {
  const read = db.prepare(`SELECT rowid AS id, query, request_body, response_body, status FROM ${table} WHERE rowid > ? ORDER BY rowid LIMIT ${PAGE}`);
  const write = db.prepare(`UPDATE ${table} SET query = ?, request_body = ?, response_body = ? WHERE rowid = ?`);
  let changed = 0;
  for (let after = 0; ; ) {
    const rows = read.all(after) as Row[];
    if (rows.length === 0) return changed;
    for (const r of rows) {
      const query = r.query === null ? null : maskQuery(r.query);
      const sent = r.request_body === null ? null : maskCardData(r.request_body);
      const refused = r.response_body !== null && (r.status === null || r.status >= 400);
      const answer = refused ? maskCardData(r.response_body!.toString()) : r.response_body;
      if (query !== r.query || sent !== r.request_body || (refused && answer !== r.response_body!.toString())) {
        write.run(query, sent, answer, r.id);
        changed++;
      }
    }
    after = rows[rows.length - 1]!.id;
  }
}
