/**
 * spec § Errors (WIRE-7): "Status codes for missing records, missing or bad credentials or
 * permissions, and the general error body: not shown.", nor what a path answers to a method it
 * does not serve (§ Webhook subscriptions: "Listing or updating subscriptions: not shown.").
 * A refusal's status is open (404, or 405 with Allow: open choice errors.unsupported-method), and a
 * server may serve more than the spec shows: a 2xx is no failure. But GET is a method the API
 * serves on other paths, so a 5xx (RFC 9110 §15.6; 501 is for a method the server recognizes
 * for no resource, §15.6.2) or a dropped connection says the server failed. The same for a path the
 * API does not serve at all.
 *
 * Safety: every request is a GET, a safe method (RFC 9110 §9.2.1): a server that serves it changes
 * nothing, so the check runs on a read-only target too.
 */
import { expect, expectRefusedOrTaken, rule, test } from '../support/fixtures/test.js';

const requests: { path: string; serves: string }[] = [
  { path: '/leads/upsert', serves: 'PUT' },
  { path: '/opportunities/bulk_create', serves: 'POST' },
];

for (const r of requests) {
  test(
    ...rule(
      'WIRE-7',
      `GET ${r.path}, a path the spec shows for ${r.serves} only, is refused with a 4xx (a 405 with Allow) or served, never a 5xx`,
      async ({ api }) => {
        const res = await api.send({ method: 'GET', path: r.path });
        // Served (a 2xx): more than the spec shows, which it allows; what it answers is not judged.
        await expectRefusedOrTaken(res, (served) => {
          test.info().annotations.push({ type: 'note', description: `GET ${r.path} was served (status ${served.status}): more than the spec shows` });
        });
        // A 405 "MUST generate an Allow header field containing a list of the target resource's currently supported methods"
        // (RFC 9110 §15.5.6): the method the spec shows on the path among them. Another 4xx carries no such duty.
        if (res.status === 405) {
          const allow = (res.headers['allow'] ?? '').split(',').map((m) => m.trim().toUpperCase());
          expect(allow, `GET ${r.path} answered 405 with Allow "${res.headers['allow'] ?? '(none)'}", which does not list ${r.serves}`).toContain(r.serves);
        }
      },
    ),
  );
}

// A path the API does not serve at all, under its prefix: refused with a 4xx (404 is usual, the status is not shown) or
// served, never a 5xx.
test(
  ...rule('WIRE-7', 'GET of a path the API does not serve is refused with a 4xx or served, never a 5xx', async ({ api }) => {
    const res = await api.send({ method: 'GET', path: '/crm_conformance_no_such_path' });
    await expectRefusedOrTaken(res, (served) => {
      test.info().annotations.push({ type: 'note', description: `an unknown path was served (status ${served.status})` });
    });
  }),
);
