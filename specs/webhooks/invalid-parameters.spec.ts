/**
 * spec § Webhook subscriptions (create parameters: target, type and event required, with their
 * allowed values) and § Errors (an invalid target URL answers 422 with
 * `{ success: false, status: 422, message }`). The other refusals have no status shown: any
 * 4xx answer is a refusal (a 5xx is the server failing, no refusal). Every input sends exactly
 * one invalid parameter.
 */
import { WebhookInvalid } from '../../contracts/index.js';
import { expect, rule, test } from '../support/fixtures/test.js';

/** Strings that are not a URL of a receiving endpoint, whatever the URL grammar details. */
const INVALID_TARGETS = ['not a url', 'example.com/hook', 'http://', '', 'https://exa mple.com/hook'];

for (const target of INVALID_TARGETS) {
  test(
    ...rule('HOOK-3', `the invalid target ${JSON.stringify(target)} answers 422 { success: false, status: 422, message }`, async ({ api, hooks }) => {
      const res = await api.post('/webhooks', { target, type: 'project', event: 'new' });
      if (res.status >= 200 && res.status < 300) hooks.track(res.body as { id: unknown });
      expect(res).toHaveStatus(422);
      expect(res).toMatchContract(WebhookInvalid);
    }),
  );
}

for (const missing of ['target', 'type', 'event'] as const) {
  test(
    ...rule('HOOK-4', `a subscription without ${missing} is refused`, async ({ api, hooks }) => {
      const body: Record<string, unknown> = { target: hooks.channel('missing').url, type: 'project', event: 'new' };
      delete body[missing];
      const res = await api.post('/webhooks', body);
      if (res.status >= 200 && res.status < 300) hooks.track(res.body as { id: unknown });
      expect(res).toBeRefused();
    }),
  );
}

test(
  ...rule('HOOK-4', 'a subscription sent as a JSON null body, without target, type and event, is refused', async ({ api, hooks }) => {
    const res = await api.post('/webhooks', null);
    if (res.status >= 200 && res.status < 300) hooks.track(res.body as { id: unknown });
    expect(res).toBeRefused();
  }),
);

/** Not among lead, person, company, opportunity, project, task (activity is a record of the service, but not a webhook type). */
for (const type of ['activity', 'invoice', '']) {
  test(
    ...rule('HOOK-5', `the type ${JSON.stringify(type)} is refused`, async ({ api, hooks }) => {
      const res = await api.post('/webhooks', { target: hooks.channel('type').url, type, event: 'new' });
      if (res.status >= 200 && res.status < 300) hooks.track(res.body as { id: unknown });
      expect(res).toBeRefused();
    }),
  );
}

/** Not among new, update, delete. */
for (const event of ['create', 'deleted', '']) {
  test(
    ...rule('HOOK-6', `the event ${JSON.stringify(event)} is refused`, async ({ api, hooks }) => {
      const res = await api.post('/webhooks', { target: hooks.channel('event').url, type: 'project', event });
      if (res.status >= 200 && res.status < 300) hooks.track(res.body as { id: unknown });
      expect(res).toBeRefused();
    }),
  );
}
