// A tiny marketplace integration, written against the real service's API: it sells a basket whose
// items belong to different sellers, and keeps each order's status from the notifications it gets.
import { createServer, type Server } from 'node:http';

export interface ShopConfig {
  apiBaseUrl: string;
  siteId: number;
  apiKey: string;
}

export interface BasketItem {
  sellerSiteId: number;
  /** Minor units. */
  amount: number;
  sku: string;
}

export class Shop {
  /** Payment ID → the last status the service notified. */
  readonly statuses = new Map<number, number>();
  private server: Server | null = null;

  constructor(private readonly cfg: ShopConfig) {}

  private get auth(): string {
    return 'Basic ' + Buffer.from(`${this.cfg.siteId}:${this.cfg.apiKey}`).toString('base64');
  }

  /** Creates one payment for the basket, split per seller; returns its ID and where to send the payer. */
  async checkout(orderId: string, items: BasketItem[]): Promise<{ paymentId: number; redirectUrl: string }> {
    const total = items.reduce((sum, i) => sum + i.amount, 0);
    const res = await fetch(`${this.cfg.apiBaseUrl}/v1/payments`, {
      method: 'POST',
      headers: { Authorization: this.auth, 'Content-Type': 'application/json' },
      body: JSON.stringify({
        Payment: {
          MerchantTransactionID: orderId,
          Amount: total,
          Currency: 'EUR',
          MethodID: 42,
          ReturnURL: 'https://shop.example/thanks',
          Splits: items.map((i) => ({ SiteID: i.sellerSiteId, Amount: i.amount, MerchantTransactionID: `${orderId}-${i.sku}` })),
        },
      }),
    });
    const body = (await res.json()) as { Payment: { ID: number; RedirectURL: string; Status: { Reasons: unknown[] | null } } };
    if (res.status !== 201 || (body.Payment.Status.Reasons ?? []).length > 0) throw new Error(`checkout failed: ${res.status}`);
    return { paymentId: body.Payment.ID, redirectUrl: body.Payment.RedirectURL };
  }

  /** Ships the order: captures the whole authorized payment. */
  async ship(paymentId: number): Promise<number> {
    const res = await fetch(`${this.cfg.apiBaseUrl}/v1/payments/${paymentId}/capture`, { method: 'POST', headers: { Authorization: this.auth } });
    const body = (await res.json()) as { Payment: { Status: { ID: number } } };
    if (res.status !== 200) throw new Error(`capture failed: ${res.status}`);
    return body.Payment.Status.ID;
  }

  /** The notification endpoint: checks the Basic header as the real service's docs say, answers 204. */
  async listen(): Promise<string> {
    this.server = createServer((req, res) => {
      let raw = '';
      req.on('data', (c) => (raw += c));
      req.on('end', () => {
        if (req.headers.authorization !== this.auth) {
          res.statusCode = 401;
          return res.end();
        }
        const body = JSON.parse(raw) as { Payment?: { ID: number; Status: { ID: number } } };
        if (body.Payment) this.statuses.set(body.Payment.ID, body.Payment.Status.ID);
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
