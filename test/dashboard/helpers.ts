// Shared plumbing of the dashboard tests: a signed-in supertest agent and the form token of a page.
import request from 'supertest';
import { createOutbox } from '../../src/notifications/outbox';
import { MARKETPLACE, type World } from '../helpers/world';

export type Agent = ReturnType<typeof request.agent>;

/** An agent signed in as `creds` (the marketplace unless told otherwise); its cookie jar keeps the session. */
export async function signedIn(w: World, creds: { SiteID: number; APIKey: string } = MARKETPLACE): Promise<Agent> {
  const agent = request.agent(w.api);
  const res = await agent.post('/dashboard/login').type('form').send({ SiteID: String(creds.SiteID), APIKey: creds.APIKey });
  if (res.status !== 303) throw new Error(`sign-in failed: ${res.status}`);
  return agent;
}

/** The session's form token, as every dashboard form carries it. */
export async function csrfOf(agent: Agent, path = '/dashboard'): Promise<string> {
  const res = await agent.get(path);
  const m = /name="csrf" value="([^"]+)"/.exec(res.text);
  if (!m) throw new Error(`no form token on ${path} (${res.status})`);
  return m[1]!;
}

/** A form POST from the signed-in agent, with the session's token. */
export async function submit(agent: Agent, path: string, fields: Record<string, string> = {}) {
  const csrf = await csrfOf(agent);
  return agent.post(path).type('form').send({ ...fields, csrf });
}

/** Status changes write notifications (no URL: journaled as no-url), as in a running sandbox. */
export function withOutbox(w: World): void {
  w.services.changes = createOutbox({ baseUrl: () => w.ctx.urls.baseUrl });
}
