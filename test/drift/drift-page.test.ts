// The Drift page's HTML: every difference shown with its values and call, everything escaped.
import { renderDriftPage } from '../../src/drift/drift.page';
import type { Difference } from '../../src/drift/differences';

const call = { Method: 'POST', Path: '/v1/payments/3005042/capture', JournalID: 12, At: '20260115100000' };
export const PAGE_DIFFERENCES: Difference[] = [
  { Kind: 'reason', Route: 'POST /v1/payments/{id}/capture', Field: 'Payment.Status.Reasons', Upstream: [200], Shadow: [201], Count: 2, Call: call },
  { Kind: 'extra field', Route: 'POST /v1/payments/{id}/capture', Field: 'Payment.<script>', Upstream: undefined, Shadow: '<img src=x onerror=alert(1)>', Count: 1, Call: call },
  { Kind: 'http status', Route: 'GET /v1/payments/{id}', Field: null, Upstream: 503, Shadow: 200, Count: 1, Call: { ...call, Method: 'GET', Path: '/v1/payments/3005042', JournalID: null } },
];

describe('the Drift page', () => {
  it('shows each difference under its route with both values, its count and its call', () => {
    const html = renderDriftPage(PAGE_DIFFERENCES);
    expect(html).toContain('3 differences: 1 reason, 1 extra field, 1 http status.');
    expect(html).toContain('<h2><code>POST /v1/payments/{id}/capture</code></h2>');
    expect(html).toContain('<pre class="body">[200]</pre>');
    expect(html).toContain('<code>POST /v1/payments/3005042/capture</code> <span class="note">journal entry 12</span>');
    expect(html).toContain('(the whole answer)');
    expect(html).toContain('(absent)');
    expect(html.match(/<tr data-kind=/g)).toHaveLength(3);
  });

  it('escapes every value', () => {
    const html = renderDriftPage(PAGE_DIFFERENCES);
    expect(html).not.toContain('<script>');
    expect(html).not.toContain('<img');
    expect(html).toContain('Payment.&lt;script&gt;');
  });

  it('says when there is no difference', () => {
    expect(renderDriftPage([])).toMatch(/No differences so far/);
  });
});
