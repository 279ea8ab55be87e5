// A marketplace integration that survives the provider misbehaving, written against the real
// service's API:
// - a create whose answer never arrives (the payment may exist): it sends the same request again;
//   reason 20 (MerchantTransactionID duplicated) says the first one went through, and the payment is
//   found by listing with merchantTransactionID;
// - a 5xx or 429 on capture: nothing happened, so it tries again (after Retry-After when given);
// - a notification that arrives twice: its handler acts on each payment status once, and answers
//   204 to the repeat as well (or the service would keep sending it).
import { createServer, type Server } from 'node:http';

export interface ShopConfig {
  apiBaseUrl: string;
  siteId: number;
  apiKey: string;
  /** Attempts per call before giving up. */
  attempts?: number;
}

export interface BasketItem {
  sellerSiteId: number;
  /** Minor units. */
  amount: number;
  sku: string;
}

interface WirePayment {
  ID: number;
  MerchantTransactionID: string;
  Status: { ID: number; Info: string; Reasons: { Code: number; Info: string }[] | null };
}

export class ResilientShop {
  /** What the shop did on each status it learned of ("order-1: Authorized"), once per payment and status. */
  readonly actions: string[] = [];
  /** Notifications received, repeats included. */
  received = 0;
  /** Requests that got no answer (network errors) and were sent again. */
  retries = 0;
  private readonly seen = new Set<string>();
  private server: Server | null = null;

  constructor(private readonly cfg: ShopConfig) {}

  private get auth(): string {
    return 'Basic ' + Buffer.from(`${this.cfg.siteId}:${this.cfg.apiKey}`).toString('base64');
  }

  /** A request sent again when no answer came back or the service failed (5xx, 429); any answer otherwise. */
  private async call(path: string, init: RequestInit): Promise<{ status: number; body: any }> {
    const attempts = this.cfg.attempts ?? 3;
    for (let i = 1; ; i++) {
      let res: Response;
      try {
        res = await fetch(`${this.cfg.apiBaseUrl}${path}`, { ...init, headers: { Authorization: this.auth, 'Content-Type': 'application/json' } });
      } catch (e) {
        // No answer: the operation may or may not have happened. Sending the same request again is
        // safe because a MerchantTransactionID is never accepted twice.
        if (i >= attempts) throw e;
        this.retries++;
        continue;
      }
      const body = res.status === 204 ? null : await res.json();
      if ((res.status >= 500 || res.status === 429) && i < attempts) {
        this.retries++;
        const wait = Number(res.headers.get('retry-after') ?? 0);
        if (wait > 0) await new Promise((r) => setTimeout(r, wait * 1000));
        continue;
      }
      return { status: res.status, body };
    }
  }

  /** Creates one payment for the basket, split per seller; returns its ID, also when the first answer was lost. */
  async checkout(orderId: string, items: BasketItem[]): Promise<number> {
    const total = items.reduce((sum, i) => sum + i.amount, 0);
    const request = {
      Payment: {
        MerchantTransactionID: orderId,
        Amount: total,
        Currency: 'EUR',
        MethodID: 42,
        ReturnURL: 'https://shop.example/thanks',
        Splits: items.map((i) => ({ SiteID: i.sellerSiteId, Amount: i.amount, MerchantTransactionID: `${orderId}-${i.sku}` })),
      },
    };
    const { status, body } = await this.call('/v1/payments', { method: 'POST', body: JSON.stringify(request) });
    const payment = body?.Payment as WirePayment | undefined;
    if (status === 201 && !payment?.Status.Reasons?.length) return payment!.ID;
    // Reason 20: a payment with this MerchantTransactionID exists, so an earlier attempt went through.
    if (status === 400 && payment?.Status.Reasons?.some((r) => r.Code === 20)) return this.find(orderId);
    throw new Error(`checkout failed: ${status} ${JSON.stringify(body)}`);
  }

  /** The payment of an order, by its MerchantTransactionID. */
  async find(orderId: string): Promise<number> {
    const { status, body } = await this.call(`/v1/payments?merchantTransactionID=${encodeURIComponent(orderId)}`, { method: 'GET' });
    const match = (body?.Payments as WirePayment[] | undefined)?.find((p) => p.MerchantTransactionID === orderId);
    if (status !== 200 || !match) throw new Error(`no payment for ${orderId}`);
    return match.ID;
  }

  /** Ships the order: captures the whole authorized payment; returns its status. */
  async ship(paymentId: number): Promise<number> {
    const { status, body } = await this.call(`/v1/payments/${paymentId}/capture`, { method: 'POST' });
    if (status !== 200) throw new Error(`capture failed: ${status} ${JSON.stringify(body)}`);
    return body.Payment.Status.ID;
  }

  /** The notification endpoint: verifies the Basic header, acts once per payment and status, answers 204 to every copy. */
  async listen(): Promise<string> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        if (req.headers.authorization !== this.auth) {
          res.statusCode = 401;
          return res.end();
        }
        this.received++;
        const p = (JSON.parse(raw) as { Payment?: WirePayment }).Payment;
        if (p) {
          const key = `${p.ID}:${p.Status.ID}`;
          if (!this.seen.has(key)) {
            this.seen.add(key);
            this.actions.push(`${p.MerchantTransactionID}: ${p.Status.Info}`);
          }
        }
        res.statusCode = 204;
        res.end();
      });
    });
    await new Promise<void>((resolve) => this.server!.listen(0, '127.0.0.1', resolve));
    const { port } = this.server.address() as { port: number };
    return `http://127.0.0.1:${port}/s2p/notify`;
  }

  close(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }
}
