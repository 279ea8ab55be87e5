// The control API of preapprovals: one with its scenario, history and steps, and the provider's or
// payer's events on it.
import type { Router } from 'express';
import { type PreapprovalEvent, preapprovalStatusInfo } from '../../domain/preapproval.machine';
import { formatTimestamp } from '../../domain/time';
import { HttpError, notFound } from '../../errors/errors';
import { preapprovalEventRequest } from '../../schemas/control';
import { validate } from '../../schemas/validator';
import { parseId } from '../../services/lookup';
import { applyPreapprovalControlEvent } from '../../services/preapprovals.service';
import { preapprovalToWire } from '../../wire/preapprovals';
import { type HttpContext, route, wireOf } from '../pipeline';

export function mountPreapprovalControlRoutes(router: Router, ctx: HttpContext): void {
  const s = ctx.services;

  router.get(
    '/_sandbox/preapprovals/:id',
    route(ctx, 'message', (req) => {
      const id = parseId(String(req.params.id));
      const p = id === null ? undefined : s.store.preapprovals.getAny(id);
      if (!p) throw notFound('Preapproval');
      const ts = (ms: number | null) => (ms === null ? null : formatTimestamp(ms));
      return {
        status: 200,
        body: {
          Preapproval: preapprovalToWire(p, wireOf(ctx, req).baseUrl),
          Scenario: p.scenario,
          History: s.store.history.ofPreapproval(p.id).map((h) => ({ At: ts(h.at), StatusID: h.statusId, StatusInfo: preapprovalStatusInfo(h.statusId), Cause: h.cause })),
          Steps: s.store.jobs.ofPreapproval(p.id).map((j) => ({ Action: j.action, Due: ts(j.dueAt), State: j.state, Outcome: j.outcome, Ran: ts(j.ranAt) })),
          PaymentIDs: s.store.payments.ofPreapproval(p.id, 1000, 0).items.map((x) => x.id),
        },
      };
    }),
  );

  router.post(
    '/_sandbox/preapprovals/:id/events',
    route(ctx, 'message', (req, body) => {
      const problems = validate(preapprovalEventRequest, body ?? {});
      if (problems.length > 0) throw new HttpError(400, problems.map((p) => p.Info).join('; '));
      const { Event } = body as { Event: PreapprovalEvent };
      return { status: 200, body: { Preapproval: preapprovalToWire(applyPreapprovalControlEvent(s, String(req.params.id), Event), wireOf(ctx, req).baseUrl) } };
    }),
  );
}
