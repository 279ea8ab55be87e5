// The UTF-8 length of a text, remembered for the last few large texts asked about. A kept answer (a
// list page, a payment read again) is the same string each time: its Content-Length and its journal
// entry's size both asked for its bytes, and each ask walked all of it (a page of ten payments, some
// 15 KB, cost as much as the rest of the journal's work on the request).

/** Texts shorter than this are measured each time (comparing them would cost about as much), and longer ones are not held. */
const REMEMBERED_FROM = 1024;
const REMEMBERED_UP_TO = 1024 * 1024;
const KEPT = 4;

const texts: (string | undefined)[] = new Array<string | undefined>(KEPT).fill(undefined);
const sizes: number[] = new Array<number>(KEPT).fill(0);
let next = 0;

/** `Buffer.byteLength(text)`, for a text seen among the last few at once. */
export function utf8Bytes(text: string): number {
  if (text.length < REMEMBERED_FROM || text.length > REMEMBERED_UP_TO) return Buffer.byteLength(text);
  // The same string object compares by identity; another one of the same length is told apart at its
  // first different character (an answer's ID comes first).
  for (let i = 0; i < KEPT; i++) if (texts[i] === text) return sizes[i]!;
  const bytes = Buffer.byteLength(text);
  texts[next] = text;
  sizes[next] = bytes;
  next = (next + 1) % KEPT;
  return bytes;
}
