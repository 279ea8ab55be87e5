// The addresses an answer names (RedirectURL, health's BaseURL and CardBaseURL, logos, the served
// document's server): the public URL when one is set, otherwise the address the request came in on.
import type { Request } from 'express';
import type { WireOptions } from '../wire/serializers';

export interface Listener {
  /** The port the listener is bound to. */
  port: number;
  /** `--public-url` / `--public-card-url`: when set, every answer names it. */
  publicUrl?: string | undefined;
  /** Its own address (public, else bound): what an answer names when the Host header cannot be used. */
  ownUrl: string;
}

/** A Host header that can stand in a URL: a name or an IPv4/IPv6 address, and a port. Anything else is ignored. */
const HOST = /^(\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]{0,252}[A-Za-z0-9])?)(?::(\d{1,5}))?$/;
/** Distinct Host values remembered per listener; a client sending many is only slower, never wrong. */
const REMEMBERED = 64;

/**
 * The answer's addresses for a request. A Host header (`127.0.0.1:32768` behind a port map, `sandbox:8080`
 * on a CI network) names the listener the request reached. The other listener keeps its port when the
 * Host's port is the bound one (no port map in between: another name for the same machine); behind a
 * port map the sandbox cannot know the other's mapped port and names its own address. Derived per Host
 * and remembered by Host only, so no caller ever gets the addresses another caller used.
 */
export class AnswerUrls {
  private readonly byHost = [new Map<string, WireOptions>(), new Map<string, WireOptions>()] as const;
  private readonly own: WireOptions;

  constructor(
    private readonly api: Listener,
    private readonly card: Listener,
  ) {
    this.own = { baseUrl: api.ownUrl, cardBaseUrl: card.ownUrl };
  }

  of(req: Request): WireOptions {
    const host = req.headers.host;
    if (host === undefined) return this.own;
    const onCard = req.socket.localPort === this.card.port;
    const known = this.byHost[onCard ? 1 : 0];
    let urls = known.get(host);
    if (urls === undefined) {
      urls = onCard ? this.derive(host, this.card, this.api, true) : this.derive(host, this.api, this.card, false);
      if (known.size >= REMEMBERED) known.clear();
      known.set(host, urls);
    }
    return urls;
  }

  private derive(host: string, reached: Listener, other: Listener, onCard: boolean): WireOptions {
    const m = host.length <= 262 ? HOST.exec(host) : null;
    if (m === null) return this.own;
    const here = reached.publicUrl ?? `http://${host}`;
    const port = m[2] === undefined ? 80 : Number(m[2]);
    const there = other.publicUrl ?? (port === reached.port ? `http://${m[1]}:${other.port}` : other.ownUrl);
    return onCard ? { baseUrl: there, cardBaseUrl: here } : { baseUrl: here, cardBaseUrl: there };
  }
}
