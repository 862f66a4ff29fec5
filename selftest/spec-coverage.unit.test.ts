/**
 * The coverage map (reporting/coverage/): its surface is the contracts' (every endpoint, stable
 * class ids), recorded URLs match the templates, small synthetic exchanges hit the value classes
 * they should (request members, path parameters, answers whole or slimmed to their shape), the
 * transitions, notification kinds and OAuth steps are judged from a test's exchanges and
 * attachments, maps of shards merge by summing, no value reaches the map, and the reasons of
 * rules/coverage-reasons.json are well formed and name gaps that exist (a stale one fails).
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { ENDPOINTS } from '../contracts/endpoints.js';
import { CatalogError } from '../rules/schema.js';
import { coverageReasons, parseCoverageReasons } from '../rules/coverage-reasons.js';
import { answerShape, readAnswerShape } from '../specs/support/core/answer-shape.js';
import type { OAuthStep } from '../specs/support/core/oauth-steps.js';
import { CoverageCollector, emptyTallies, outsideShape, type RecordedExchange, type TestInput } from '../reporting/coverage/collector.js';
import { renderCoverageHtml } from '../reporting/coverage/html.js';
import { buildCoverageMap, coverageLine, dataOf, mergeCoverageMaps, QUICK_GAP_REASON, SpecCoverage, type CoverageData } from '../reporting/coverage/map.js';
import { quickStandardClasses } from '../specs/support/core/quick.js';
import { endpointMatcher, pathOf, surface } from '../reporting/coverage/surface.js';

const API = 'http://127.0.0.1:9/developer_api/v1';
const AUTH = 'http://127.0.0.1:9';
const s = surface();

const x = (method: string, path: string, status: number, requestBody?: unknown, responseBody?: unknown): RecordedExchange => ({
  method,
  url: path.startsWith('http') ? path : `${API}${path}`,
  status,
  requestBody,
  responseBody,
});

/** The counts of a collector that saw these tests, by class id (only the classes hit). */
function countsOf(...tests: TestInput[]): Record<string, number> {
  const c = new CoverageCollector(s);
  for (const t of tests) c.addTest(t);
  return Object.fromEntries(s.classes.flatMap((k, i) => (c.counts[i] ? [[k.id, c.counts[i]]] : [])));
}

const mapOf = (c: CoverageCollector, reasons = coverageReasons()) =>
  buildCoverageMap({ counts: Object.fromEntries(s.classes.map((k, i) => [k.id, c.counts[i]])), tallies: c.tallies }, {}, s, reasons);

test('the surface: every endpoint of contracts/endpoints.ts, class ids unique and stable', () => {
  assert.deepEqual(
    s.endpoints.map((e) => e.key),
    ENDPOINTS.map((e) => `${e.method} ${e.path}`),
  );
  assert.equal(new Set(s.classes.map((c) => c.id)).size, s.classes.length, 'class ids are unique');
  for (const id of [
    'POST /projects/search request sort_direction=desc',
    'POST /projects/search request sort_by=related_to',
    'POST /projects/search request page_number<0',
    'POST /projects/search request page_number=0',
    'POST /projects/search request page_size omitted',
    'POST /projects/search request followed=2',
    'POST /projects/search request assignee_ids[]=-2',
    'POST /projects/search request tags object-form',
    'POST /projects/search request tags.option=ANY',
    'POST /projects/search request minimum_created_date>max',
    'POST /projects/search request (body) empty-object',
    'POST /projects/search request (body) past-100000',
    'POST /tasks/search request statuses[]=Completed',
    'POST /tasks/search request project_ids[]=-2',
    'PUT /leads/upsert request match.field_name=email',
    'POST /leads/{lead_id}/convert request details.company.name empty-string',
    'POST /leads/{lead_id}/convert request details.company.exact_match=false',
    'POST /webhooks request type=task',
    'POST /webhooks request event=delete',
    'POST /webhooks request target not-a-url',
    'POST /opportunities/bulk_create request opportunities>10-items',
    'GET /{entity_type}/{entity_id}/files/s3_signed_url request {entity_type}=projects',
    'GET /{entity_type}/{entity_id}/files/{file_id} request {file_id} non-numeric',
    'DELETE /{entity}/{entity_id}/related request {entity}=people',
    'PUT /leads/upsert status 422',
    'POST /opportunities/bulk_create status 429',
    'POST /projects/search response 2xx ProjectList[].tags empty-list',
    'POST /leads/{lead_id}/convert response 2xx ConvertResponse.opportunity absent',
    'POST /opportunities/bulk_create response 200 BulkFailedEntry[].message value',
    'transition lead-conversion company-joined-by-name',
    'notification person/update',
    'oauth token code reused',
    'oauth authorize redirect_uri missing',
  ])
    assert.ok(s.byId.has(id), `the surface has ${id}`);
  // An identifier's format is not fixed (except the files'): no classes of its own.
  assert.ok(!s.classes.some((c) => c.member === '{lead_id}' || c.member === '{webhook_id}'));
});

test('recorded URLs match the templates: fixed segments first, query strings and prefixes aside, OAuth by its path', () => {
  const match = endpointMatcher(s);
  const key = (method: string, url: string) => match(method, url)?.e.key;
  assert.equal(key('GET', `${API}/people/12/files/s3_signed_url`), 'GET /{entity_type}/{entity_id}/files/s3_signed_url');
  assert.deepEqual(match('GET', `${API}/people/12/files/34?x=1`)?.params, ['people', '12', '34']);
  assert.equal(key('PUT', `${API}/leads/upsert`), 'PUT /leads/upsert');
  assert.equal(key('POST', `${API}/leads/7/convert`), 'POST /leads/{lead_id}/convert');
  assert.equal(key('DELETE', `${API}/people/5/related`), 'DELETE /{entity}/{entity_id}/related');
  assert.equal(key('GET', `http://h/base/developer_api/v1/account`), 'GET /account', 'a base URL with a path of its own');
  assert.equal(key('POST', `${AUTH}/oauth/token`), 'POST /oauth/token');
  assert.equal(key('GET', `${API}/projects/search`), undefined, 'another method');
  assert.equal(key('POST', `${API}/tasks`), undefined, 'a path the spec does not show');
  assert.deepEqual(pathOf(`${API}/`), { host: 'api', path: '/' });
  assert.equal(outsideShape('POST', `${API}/projects/9912/follow`), 'POST /projects/{…}/follow');
  assert.equal(outsideShape('POST', 'https://storage.example/bucket/key-abc'), 'POST (another host or path)');
});

test('request value classes: enum members, omitted, null, empty, spaces, non-ASCII, bounds, wrong type, spec values, forms', () => {
  const body = {
    sort_direction: 'desc',
    sort_by: 'nope',
    page_number: 0,
    page_size: 1,
    name: 'Zoë Smith',
    assignee_ids: [-2, '17'],
    tags: { option: 'ANY', value: [] },
    followed: 'yes',
    minimum_created_date: 99_999_999_999,
    statuses: [''],
  };
  const c = countsOf({ exchanges: [x('POST', '/projects/search', 200, body, []), x('POST', '/projects/search', 200, {}, [])] });
  const is = (id: string, n = 1) => assert.equal(c[`POST /projects/search request ${id}`] ?? 0, n, id);
  is('sort_direction=desc');
  is('sort_direction omitted');
  is('sort_by other-value');
  is('page_number=0');
  is('page_size=1');
  is('name value');
  is('name spaces');
  is('name non-ascii');
  is('name omitted');
  is('assignee_ids several-items');
  is('assignee_ids[]=-2');
  is('assignee_ids[] value', 2);
  is('tags object-form');
  is('tags.option=ANY');
  is('tags.value empty-list');
  is('tags list-form', 0);
  is('followed wrong-type');
  is('minimum_created_date>max');
  is('statuses[] empty-string');
  is('(body) empty-object');
  is('ids omitted', 2);
  assert.equal(c['POST /projects/search status 2xx'], 2);
  const more = countsOf({
    exchanges: [
      x('POST', '/projects/search', 200, { page_number: 5001, page_size: 20 }, []),
      x('POST', '/opportunities/bulk_create', 422, { opportunities: Array.from({ length: 11 }, () => ({ name: 'o' })) }, { error: 'too large' }),
      x('POST', '/webhooks', 422, { target: 'not a url', type: 'lead', event: 'new', custom_field_computed_values: null }, {}),
      x('POST', `${AUTH}/oauth/token`, 200, { grant_type: 'authorization_code', client_secret: '«redacted»' }, {}),
      x('GET', `${API}/leads/4/files/abc`, 404),
      x('POST', '/leads/{lead_id}/convert'.replace('{lead_id}', '3'), 200, { details: { company: { name: '«redacted»' } } }, {}),
    ],
  });
  assert.equal(more['POST /projects/search request (body) past-100000'], 1, 'a page starting at record 100,000');
  assert.equal(more['POST /opportunities/bulk_create request opportunities>10-items'], 1);
  assert.equal(more['POST /opportunities/bulk_create status 422'], 1);
  assert.equal(more['POST /webhooks request target not-a-url'], 1);
  assert.equal(more['POST /webhooks request custom_field_computed_values wrong-type'], 1, 'null where the contract allows none');
  assert.equal(more['GET /{entity_type}/{entity_id}/files/{file_id} request {entity_type}=leads'], 1);
  assert.equal(more['GET /{entity_type}/{entity_id}/files/{file_id} request {file_id} non-numeric'], 1);
  assert.equal(more['POST /leads/{lead_id}/convert request details.company.name value'], 1, 'a redacted value is a value');
  assert.equal(more['POST /leads/{lead_id}/convert request details.company.name non-ascii'], undefined, '«redacted» is no text of its own');
  assert.ok(!Object.keys(more).some((id) => id.startsWith('POST /oauth/token request')), "the token request's members are counted as OAuth steps");
});

test('answer classes: each member (of list items) a value, null, [], a non-empty list, absent; a slimmed answer by its shape', () => {
  const items = [
    { id: 1, name: 'p', related_resource: null, tags: [], status: 'Open', details: null },
    { id: 2, name: 'q', related_resource: { id: 1, type: 'person' }, tags: ['a'], status: 'Open', details: 'd' },
  ];
  const whole = countsOf({ exchanges: [x('POST', '/projects/search', 200, {}, items)] });
  const line = answerShape(items)!;
  assert.equal(line, '#2 id:v name:v related_resource:nv tags:el status:v details:nv', 'one short line');
  assert.deepEqual(readAnswerShape(line), { items: 2, members: { id: 'v', name: 'v', related_resource: 'nv', tags: 'el', status: 'v', details: 'nv' } });
  assert.equal(answerShape([{ id: 1 }, { id: 2, extra: null }]), '#2 id:v extra:an', 'a member some items lack');
  assert.equal(answerShape('… (9000 characters)'), undefined, 'a clipped body has no shape');
  const slim = countsOf({ exchanges: [{ ...x('POST', '/projects/search', 200, {}), answerShape: line }] });
  const answerIds = (c: Record<string, number>) =>
    Object.keys(c)
      .filter((k) => k.includes(' response '))
      .sort();
  assert.deepEqual(answerIds(slim), answerIds(whole), 'a shape counts the classes its body would');
  for (const id of ['tags empty-list', 'tags non-empty', 'related_resource null', 'related_resource value', 'details null', 'details value'])
    assert.ok(whole[`POST /projects/search response 2xx ProjectList[].${id}`], id);
  const convert = countsOf({ exchanges: [x('POST', '/leads/3/convert', 200, { details: {} }, { person: { id: 9 }, company: null })] });
  assert.equal(convert['POST /leads/{lead_id}/convert response 2xx ConvertResponse.company null'], 1);
  assert.equal(convert['POST /leads/{lead_id}/convert response 2xx ConvertResponse.opportunity absent'], 1, 'a member the contract lets an answer leave out');
  assert.ok(!s.byId.has('POST /projects/search response 2xx ProjectList[].custom_fields absent'), 'a member the contract requires has no absent class');
  const bulk = countsOf({
    exchanges: [
      x('POST', '/opportunities/bulk_create', 200, { opportunities: [{}, {}] }, [
        { id: 5, name: 'o' },
        { success: false, message: { name: [{ error: 'invalid' }] } },
      ]),
    ],
  });
  assert.equal(bulk['POST /opportunities/bulk_create response 200 BulkOpportunity[].id value'], 1);
  assert.equal(bulk['POST /opportunities/bulk_create response 200 BulkFailedEntry[].message value'], 1, 'each entry by the contract it matches');
});

test('transitions: conversion, upsert, relationship removal and subscriptions, judged in the order of the test', () => {
  const c = countsOf({
    exchanges: [
      x('PUT', '/leads/upsert', 200, { properties: { name: 'L' }, match: { field_name: 'name', field_value: 'L' } }, { id: 1, name: 'L', status: 'New' }),
      x('PUT', '/leads/upsert', 200, { properties: { name: 'L' }, match: { field_name: 'name', field_value: 'L' } }, { id: 1, name: 'L', status: 'New' }),
      x(
        'POST',
        '/leads/1/convert',
        200,
        { details: { person: { name: 'P' }, company: { name: 'C', exact_match: true } } },
        { person: { id: 2 }, company: { id: 3 } },
      ),
      x('POST', '/leads/1/convert', 404, { details: {} }),
      x('PUT', '/leads/upsert', 200, { properties: { name: 'L' }, match: { field_name: 'name', field_value: 'L' } }, { id: 4, name: 'L', status: 'New' }),
      x(
        'POST',
        '/leads/4/convert',
        200,
        { details: { company: { name: 'C' }, opportunity: { name: 'O' } } },
        { person: { id: 5 }, company: { id: 3 }, opportunity: { id: 6 } },
      ),
      x('PUT', '/leads/upsert', 422, { properties: {}, match: { field_name: 'name', field_value: 'x' } }, { ids: [7, 8] }),
      x('DELETE', '/people/5/related', 200, { resource: { id: 3, type: 'company' } }, { removed: true, resource: { id: 3, type: 'company' } }),
      x('GET', '/companies/3', 200, undefined, { id: 3 }),
      x('DELETE', '/people/5/related', 200, { resource: { id: 3, type: 'company' } }, { removed: false, resource: { id: 3, type: 'company' } }),
    ],
  });
  const t = (id: string) => c[`transition ${id}`] ?? 0;
  assert.equal(t('lead-upsert created-status-new'), 2);
  assert.equal(t('lead-upsert updated'), 1);
  assert.equal(t('lead-upsert conflict-422'), 1);
  assert.equal(t('lead-conversion person-created'), 2);
  assert.equal(t('lead-conversion company-created'), 1);
  assert.equal(t('lead-conversion company-joined-by-name'), 1, 'the name of a Company the test saw before');
  assert.equal(t('lead-conversion no-opportunity'), 1);
  assert.equal(t('lead-conversion opportunity-created'), 1);
  assert.equal(t('lead-conversion lead-gone'), 2, 'converting it again is refused; an upsert on its name makes another Lead');
  assert.equal(t('relationship-removal removed'), 1);
  assert.equal(t('relationship-removal related-record-kept'), 1);
  assert.ok(t('relationship-removal record-kept') >= 1);
});

test('notifications count by the kind their receiving path was subscribed to (a path of several kinds tells none); OAuth steps by path', () => {
  const hook = (path: string, type: string, event: string, id: number) =>
    x('POST', '/webhooks', 200, { target: `http://127.0.0.1:1${path}`, type, event }, { id, created_at: 1_700_000_000 });
  const c = countsOf({
    exchanges: [
      hook('/hooks/ns/a', 'person', 'new', 1),
      hook('/hooks/ns/all', 'lead', 'new', 2),
      hook('/hooks/ns/all', 'task', 'delete', 3),
      x('GET', '/webhooks/1', 200, undefined, { id: 1 }),
      x('DELETE', '/webhooks/1', 200, undefined, { id: 1 }),
      x('GET', '/webhooks/1', 404),
    ],
    notifications: { '/hooks/ns/a': [{ body: {} }, { body: {} }], '/hooks/ns/all': [{ body: {} }] },
    oauthSteps: [
      {
        step: 'authorize',
        params: { response_type: 'valid', client_id: 'valid', redirect_uri: 'other', scope: 'valid', state: 'given' },
        decision: 'deny',
        screens: ['consent'],
        callback: { method: 'POST', code: false, error: true, state: true },
      },
      { step: 'token', members: { grant_type: 'valid', code: 'reused', redirect_uri: 'valid', client_id: 'valid', client_secret: 'missing' }, status: 400 },
    ],
  });
  assert.equal(c['notification person/new'], 2);
  assert.equal(c['notification task/delete'], undefined);
  assert.equal(c['notification lead/new'], undefined);
  for (const id of ['subscribed', 'read-back', 'unsubscribed', 'gone-after-unsubscribe']) assert.ok(c[`transition webhook-subscription ${id}`], id);
  for (const id of [
    'authorize redirect_uri other-value',
    'authorize state given',
    'login already-logged-in',
    'consent shown',
    'consent deny',
    'callback post',
    'callback error',
    'callback state-echoed',
    'token code reused',
    'token client_secret missing',
  ])
    assert.equal(c[`oauth ${id}`], 1, id);
  assert.equal(c['oauth authorize valid'], undefined);
  assert.equal(c['oauth token valid'], undefined);
});

test('the map: its schema, its gaps marked explained or not, no value of an exchange in it, a summary line', () => {
  const c = new CoverageCollector(s);
  c.addTest({
    exchanges: [
      x('POST', '/projects/search', 200, { name: 'secret-looking-value-91f3' }, [{ id: 1, name: 'another-value-7c2e', tags: [] }]),
      x('POST', '/projects/9/follow', 200, { token: 'x' }, {}),
    ],
  });
  const reasons = parseCoverageReasons([
    { gaps: ['POST /projects/search request sort_direction=desc'], kind: 'not-the-spec', reason: 'a reason for the sake of the test', since: '0.2.0' },
  ]);
  const m = SpecCoverage.parse(mapOf(c, reasons));
  const text = JSON.stringify(m);
  assert.doesNotMatch(text, /secret-looking-value|another-value/, 'member names and classes only');
  assert.equal(m.outsideSpec['POST /projects/{…}/follow'], 1);
  const gap = (id: string) => m.gaps.find((g) => g.id === id);
  assert.equal(gap('POST /projects/search request sort_direction=desc')?.explained, true);
  assert.equal(gap('POST /projects/search request sort_direction=asc')?.explained, false);
  assert.equal(gap('POST /projects/search request name value'), undefined, 'exercised: no gap');
  assert.equal(m.summary.gaps.total, m.summary.classes.total - m.summary.classes.exercised);
  assert.equal(m.summary.endpoints.exercised, 1);
  assert.match(
    coverageLine(m.summary, 'reports/spec-coverage.html'),
    /^Spec coverage: 1\/22 endpoints, \d+\/\d+ classes \(\d+ gaps, 1 explained, \d+ unexplained\): reports\/spec-coverage\.html$/,
  );
  const html = renderCoverageHtml(m);
  assert.match(html, /<a href="conformance\.html">conformance report<\/a>/);
  assert.match(html, /data-class="POST \/projects\/search request sort_direction=asc" data-count="0"/);
  assert.match(html, /id="unexplained"/);
  assert.doesNotMatch(html, /secret-looking-value/);
});

test("a quick run's gap that a standard run exercises is the depth's, explained; at standard, or a class no standard run exercised, it is not", () => {
  const data = { counts: {}, tallies: new CoverageCollector(s).tallies };
  const standard = () => new Set(['POST /projects/search request sort_direction=asc']);
  const gap = (depth: string | undefined, id: string) => buildCoverageMap(data, { depth }, s, coverageReasons(), standard).gaps.find((g) => g.id === id);
  assert.deepEqual(gap('quick', 'POST /projects/search request sort_direction=asc'), {
    id: 'POST /projects/search request sort_direction=asc',
    section: gap('quick', 'POST /projects/search request sort_direction=asc')?.section,
    explained: true,
    kind: 'elsewhere',
    reason: QUICK_GAP_REASON,
  });
  assert.equal(gap('standard', 'POST /projects/search request sort_direction=asc')?.explained, false);
  assert.equal(gap('quick', 'POST /projects/search request sort_direction=desc')?.explained, false);
  const shipped = quickStandardClasses();
  assert.ok(shipped.size > 500, `the selection lists the classes standard exercises (${shipped.size})`);
  const ids = new Set(s.classes.map((c) => c.id));
  for (const id of shipped) assert.ok(ids.has(id), `${id} is a class of the surface (make the selection again: scripts/quick-selection.ts)`);
});

test('maps of shards merge by summing their counts', () => {
  const one = new CoverageCollector(s);
  const two = new CoverageCollector(s);
  const both = new CoverageCollector(s);
  const a: TestInput = { exchanges: [x('POST', '/projects/search', 200, { sort_direction: 'asc' }, []), x('GET', '/account', 200, undefined, { id: 1 })] };
  const b: TestInput = { exchanges: [x('POST', '/projects/search', 200, { sort_direction: 'desc' }, []), x('POST', '/tasks', 200, {}, {})] };
  one.addTest(a);
  two.addTest(b);
  both.addTest(a);
  both.addTest(b);
  const merged = mergeCoverageMaps([mapOf(one), mapOf(two)]);
  const whole = mapOf(both);
  const strip = (m: SpecCoverage) => ({ ...m, generatedAt: '' });
  assert.deepEqual(strip(merged), strip(whole));
  assert.equal(merged.endpoints.find((e) => e.endpoint === 'POST /projects/search')?.requests, 2);
  const data: CoverageData = dataOf(merged);
  assert.equal(data.counts['POST /projects/search request sort_direction=asc'], 1);
  assert.equal(data.tallies.outsideSpec['POST /tasks'], 1);
  assert.equal(dataOf(mapOf(new CoverageCollector(s))).tallies.exchanges, emptyTallies().exchanges);
});

test('per endpoint, the spec files whose tests sent it requests: sorted, once each, OAuth steps under the authorization request; a merge unites them', () => {
  const one = new CoverageCollector(s);
  const two = new CoverageCollector(s);
  const a: TestInput = { file: 'specs/search/sort.spec.ts', exchanges: [x('POST', '/projects/search', 200, {}, []), x('POST', '/tasks', 200, {}, {})] };
  const b: TestInput = {
    file: 'specs/account/account.spec.ts',
    exchanges: [x('POST', '/projects/search', 200, {}, []), x('GET', '/account', 200, undefined, { id: 1 })],
  };
  const authorize = {
    step: 'authorize',
    params: { response_type: 'valid', client_id: 'valid', redirect_uri: 'valid', scope: 'valid', state: 'given' },
    screens: [],
  };
  const c: TestInput = { file: 'specs/oauth/authorize.spec.ts', exchanges: [], oauthSteps: [authorize as OAuthStep] };
  one.addTest(a);
  one.addTest(a);
  two.addTest(b);
  two.addTest(c);
  two.addTest({ exchanges: [x('GET', '/pipelines', 200, undefined, [])] });
  const files = (m: SpecCoverage, key: string) => m.endpoints.find((e) => e.endpoint === key)?.specFiles;
  const m1 = mapOf(one);
  assert.deepEqual(files(m1, 'POST /projects/search'), ['specs/search/sort.spec.ts'], 'once, however many requests');
  assert.deepEqual(files(m1, 'GET /account'), []);
  assert.deepEqual(m1.outsideSpecFiles, { 'POST /tasks': ['specs/search/sort.spec.ts'] });
  const merged = mergeCoverageMaps([m1, mapOf(two)]);
  assert.deepEqual(files(merged, 'POST /projects/search'), ['specs/account/account.spec.ts', 'specs/search/sort.spec.ts']);
  assert.deepEqual(files(merged, 'GET /oauth/authorize'), ['specs/oauth/authorize.spec.ts'], 'the OAuth steps stand for the authorization request');
  assert.deepEqual(files(merged, 'GET /pipelines'), [], 'a test without its file lists none');
  assert.match(
    renderCoverageHtml(merged),
    /data-spec-files="2">[^<]*<code>specs\/account\/account\.spec\.ts<\/code> · <code>specs\/search\/sort\.spec\.ts<\/code>/,
  );
  // A map written before the lists: read as none.
  const old = JSON.parse(JSON.stringify(m1)) as Record<string, unknown> & { endpoints: Record<string, unknown>[] };
  delete old.outsideSpecFiles;
  for (const e of old.endpoints) delete e.specFiles;
  assert.deepEqual(files(SpecCoverage.parse(old), 'POST /projects/search'), []);
});

test('rules/coverage-reasons.json: well formed, each gap explained once, and every id a class of the surface (a stale one fails)', () => {
  const { records, byGap } = coverageReasons();
  assert.ok(records.length > 0);
  const stale = [...byGap.keys()].filter((id) => !s.byId.has(id));
  assert.deepEqual(stale, [], `reasons for gaps that no longer exist (remove them from rules/coverage-reasons.json): ${stale.join(', ')}`);
  // A stale reason is caught: the map names it, and so does this test's check.
  const withStale = parseCoverageReasons([
    { gaps: ['POST /projects/search request no_such_member value'], kind: 'not-the-spec', reason: 'a member removed from the contract', since: '0.2.0' },
  ]);
  assert.deepEqual(mapOf(new CoverageCollector(s), withStale).staleReasons, ['POST /projects/search request no_such_member value']);
  assert.throws(
    () =>
      parseCoverageReasons([
        { gaps: ['a b'], kind: 'elsewhere', reason: 'the same gap in two records', since: '0.2.0' },
        { gaps: ['a b'], kind: 'elsewhere', reason: 'the same gap in two records', since: '0.2.0' },
      ]),
    (e: unknown) => e instanceof CatalogError && /explained twice/.test(e.message),
  );
  assert.throws(() => parseCoverageReasons([{ gaps: ['a b'], kind: 'because', reason: 'an unknown kind of reason', since: '0.2.0' }]), CatalogError);
  assert.throws(() => parseCoverageReasons([{ gaps: [], kind: 'elsewhere', reason: 'a record that names no gap', since: '0.2.0' }]), CatalogError);
});
