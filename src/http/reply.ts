// Writes answers straight to the socket: one stringify, one encoding, one write, the headers the real service sends.
// (Express's res.json would also look the charset up in its MIME database on every answer.)
import type { Response } from 'express';

const JSON_TYPE = 'application/json; charset=utf-8';
const HTML_TYPE = 'text/html; charset=utf-8';
const SVG_TYPE = 'image/svg+xml; charset=utf-8';

function write(res: Response, status: number, type: string, text: string): void {
  // As bytes: encoded once, for its length, the socket and the request journal alike.
  const bytes = Buffer.from(text, 'utf8');
  res.statusCode = status;
  res.setHeader('Content-Type', type);
  res.setHeader('Content-Length', bytes.length);
  res.end(bytes);
}

export function sendJson(res: Response, status: number, body: unknown): void {
  write(res, status, JSON_TYPE, JSON.stringify(body));
}

export function sendJsonText(res: Response, status: number, json: string): void {
  write(res, status, JSON_TYPE, json);
}

export function sendHtml(res: Response, status: number, html: string): void {
  write(res, status, HTML_TYPE, html);
}

export function sendSvg(res: Response, svg: string): void {
  write(res, 200, SVG_TYPE, svg);
}
