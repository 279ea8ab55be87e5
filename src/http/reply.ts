// Writes answers straight to the socket: one stringify, one write, the headers the real service sends.
// (Express's res.json would also look the charset up in its MIME database on every answer.)
import type { Response } from 'express';

const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';
const SVG_TYPE = 'image/svg+xml; charset=utf-8';

function write(res: Response, status: number, type: string, body: string | Buffer): void {
  // Text is written with its headers in one piece; bytes (a kept answer) as they are, beside them, in
  // the same write. The request journal keeps what was given.
  res.statusCode = status;
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Length', typeof body === 'string' ? Buffer.byteLength(body) : body.length);
  res.end(body);
}

export function sendJson(res: Response, status: number, body: unknown): void {
  // res.locals is Express's: a refusal made before Express took the request (a raw server's) has none.
  if (status >= 400 && res.locals) res.locals.refusal = refusalOf(body);
  write(res, status, JSON_TYPE, JSON.stringify(body));
}

/** Why a refusal refused, for its log line: the reasons' texts, or the Message, or the list's Error. */
export function refusalOf(body: unknown): string | undefined {
  if (body === null || typeof body !== 'object') return undefined;
  const top = body as Record<string, unknown>;
  if (typeof top.Message === 'string') return top.Message;
  if (typeof top.Error === 'string') return top.Error;
  const infos: string[] = [];
  const collect = (reasons: unknown) => {
    if (!Array.isArray(reasons)) return;
    for (const r of reasons) {
      const info = (r as { Info?: unknown; Code?: unknown } | null)?.Info;
      if (typeof info === 'string') infos.push(info);
    }
  };
  collect(top.Reasons);
  for (const value of Object.values(top)) {
    if (value === null || typeof value !== 'object' || Array.isArray(value)) continue;
    const inner = value as Record<string, unknown>;
    collect(inner.Reasons);
    collect((inner.Status as { Reasons?: unknown } | null | undefined)?.Reasons);
  }
  return infos.length > 0 ? infos.join('; ') : undefined;
}

export function sendJsonText(res: Response, status: number, json: string | Buffer): void {
  write(res, status, JSON_TYPE, json);
}

export function sendHtml(res: Response, status: number, html: string): void {
  write(res, status, HTML_TYPE, html);
}

export function sendSvg(res: Response, svg: string): void {
  write(res, 200, SVG_TYPE, svg);
}
