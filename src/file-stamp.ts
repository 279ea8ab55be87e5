// A file's stamp: what tells a process that a file it read before may hold something else now.
import { statSync } from 'node:fs';

/**
 * What changes with any write to the file (its ctime moves) or its replacement by another (its inode),
 * read without reading the file; undefined when it cannot be stat'ed.
 */
export function fileStamp(path: string): string | undefined {
  try {
    const st = statSync(path, { bigint: true });
    return `${st.ino}:${st.size}:${st.mtimeNs}:${st.ctimeNs}`;
  } catch {
    return undefined;
  }
}
