// Reads a request's body as text, whatever its content type: routes parse it themselves, so that a
// malformed body is answered in the envelope of the resource they serve. Decodes the charset and the
// content encoding the header names, and refuses what it cannot read with the status a client expects.
import type { NextFunction, Request, Response } from 'express';
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib';
import type { Readable, Transform } from 'node:stream';
import { TextDecoder } from 'node:util';

/** An error raised before a route runs: always answered `{"Message"}` with its status. */
export class BodyError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly type: string,
  ) {
    super(message);
  }
}

const NODE_CHARSETS: Record<string, BufferEncoding> = {
  'utf-8': 'utf8',
  utf8: 'utf8',
  'us-ascii': 'latin1',
  ascii: 'latin1',
  'iso-8859-1': 'latin1',
  latin1: 'latin1',
  binary: 'latin1',
  'utf-16le': 'utf16le',
  'utf16le': 'utf16le',
  'ucs-2': 'utf16le',
  ucs2: 'utf16le',
};

/** Text of the body in the request's charset (UTF-8 unless it names one); a byte order mark is dropped. */
function decoder(contentType: string | undefined): (b: Buffer) => string {
  const m = contentType ? /;\s*charset\s*=\s*"?([^";\s]+)"?/i.exec(contentType) : null;
  const name = (m?.[1] ?? 'utf-8').toLowerCase();
  const strip = (s: string) => (s.charCodeAt(0) === 0xfeff ? s.slice(1) : s);
  const native = NODE_CHARSETS[name];
  if (native) return (b) => strip(b.toString(native));
  let td: TextDecoder;
  try {
    td = new TextDecoder(name);
  } catch {
    throw new BodyError(415, `unsupported charset "${name.toUpperCase()}"`, 'charset.unsupported');
  }
  return (b) => strip(td.decode(b));
}

function decoded(req: Request): Readable {
  const encoding = (req.headers['content-encoding'] ?? 'identity').toLowerCase().trim();
  switch (encoding) {
    case 'identity':
      return req;
    case 'gzip':
      return req.pipe(createGunzip());
    case 'deflate':
      return req.pipe(createInflate());
    case 'br':
      return req.pipe(createBrotliDecompress());
    default:
      throw new BodyError(415, `unsupported content encoding "${encoding}"`, 'encoding.unsupported');
  }
}

/** Middleware: `req.body` becomes the body's text, or stays undefined when the request has none. */
export function readBody(limitBytes: number) {
  return (req: Request, _res: Response, next: NextFunction): void => {
    const length = req.headers['content-length'];
    if (req.headers['transfer-encoding'] === undefined && length === undefined) return next();
    let decode: (b: Buffer) => string;
    let stream: Readable;
    try {
      if (length !== undefined && Number(length) > limitBytes) throw new BodyError(413, 'request entity too large', 'entity.too.large');
      decode = decoder(req.headers['content-type']);
      stream = decoded(req);
    } catch (e) {
      // The rest of the body is read and dropped, so the connection can answer.
      req.resume();
      return next(e);
    }
    const chunks: Buffer[] = [];
    let size = 0;
    let done = false;
    const finish = (err?: unknown) => {
      if (done) return;
      done = true;
      stream.removeAllListeners('data');
      if (err) {
        if (stream !== req) {
          req.unpipe(stream as Transform);
          stream.destroy();
        }
        req.resume();
        return next(err);
      }
      try {
        req.body = decode(chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, size));
      } catch (e) {
        return next(new BodyError(400, `the body could not be decoded: ${(e as Error).message}`, 'charset.invalid'));
      }
      next();
    };
    stream.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limitBytes) return finish(new BodyError(413, 'request entity too large', 'entity.too.large'));
      chunks.push(chunk);
    });
    stream.once('end', () => finish());
    stream.once('error', (e) => finish(new BodyError(400, `the body could not be read: ${e.message}`, 'body.unreadable')));
    req.once('aborted', () => finish(new BodyError(400, 'request aborted', 'request.aborted')));
  };
}
