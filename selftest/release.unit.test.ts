/**
 * Releases: CHANGELOG.md (Keep a Changelog) has an Unreleased section, then one per release, newest
 * first, the first of them the package's version; no rule or open choice says it came with a
 * release later than the package (`since`), and each names a release of the changelog; the docs
 * name the tarball the package packs to (`crm-conformance-<version>.tgz`) and a release tag that
 * the changelog lists. No tag is looked up: a clone may have none.
 */
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULES } from '../rules/index.js';
import { CHOICES } from '../rules/choices/index.js';
import { ROOT, readJson } from './helpers.js';
import { repositoryFiles } from './repo-files.js';

const VERSION = readJson<{ version: string }>('package.json').version;
const parts = (v: string) => v.split('.').map(Number);
/** -1, 0 or 1 as release `a` comes before, with or after `b`. */
const compare = (a: string, b: string) => {
  const [x, y] = [parts(a), parts(b)];
  const i = x.findIndex((n, k) => n !== y[k]);
  return i < 0 ? 0 : Math.sign(x[i] - y[i]);
};

const changelog = readFileSync(join(ROOT, 'CHANGELOG.md'), 'utf8');
const sections = [...changelog.matchAll(/^## \[([^\]]+)\](.*)$/gm)].map((m) => ({ name: m[1], rest: m[2] }));
const RELEASES = sections.filter((s) => s.name !== 'Unreleased').map((s) => s.name);
/**
 * The release the changes under [Unreleased] will make: a minor one (before 1.0.0 a minor release
 * may change what a run judges). A rule or choice added (or decided) since the last release says it
 * comes with it, while [Unreleased] lists changes.
 */
const NEXT = `${parts(VERSION)[0]}.${parts(VERSION)[1] + 1}.0`;
const UNRELEASED = /^## \[Unreleased\]\n([\s\S]*?)(?=^## \[)/m.exec(changelog)?.[1] ?? '';
const upcoming = (since: string) => since === NEXT && /^- /m.test(UNRELEASED);

test('the package has a version, x.y.z', () => {
  assert.match(VERSION, /^\d+\.\d+\.\d+$/);
});

test('CHANGELOG.md: Unreleased first, then each release, newest first, dated; the first is the package version', () => {
  assert.match(changelog, /^# Changelog\n/);
  assert.equal(sections[0]?.name, 'Unreleased', 'the first section is [Unreleased] (what is merged and not yet released)');
  for (const s of sections.slice(1)) {
    assert.match(s.name, /^\d+\.\d+\.\d+$/, `## [${s.name}] is a release`);
    assert.match(s.rest, /^ - \d{4}-\d{2}-\d{2}$/, `## [${s.name}] is dated: "## [${s.name}] - YYYY-MM-DD"`);
  }
  assert.equal(RELEASES[0], VERSION, `the newest release of CHANGELOG.md is the package's version ${VERSION}`);
  for (let i = 1; i < RELEASES.length; i++)
    assert.equal(compare(RELEASES[i - 1], RELEASES[i]), 1, `${RELEASES[i - 1]} is listed before ${RELEASES[i]}: newest first`);
});

test('no rule or open choice came with a release later than the package (or the next one, for what [Unreleased] lists), and each names a release of CHANGELOG.md', () => {
  const records = [
    ...RULES.map((r) => ({ what: `rule ${r.id}`, since: r.since })),
    ...CHOICES.map((c) => ({ what: `choice ${c.id}`, since: c.since })),
    ...CHOICES.flatMap((c) => (c.decided ? [{ what: `choice ${c.id} (decided)`, since: c.decided.since }] : [])),
  ];
  const later = records.filter((r) => compare(r.since, VERSION) > 0 && !upcoming(r.since)).map((r) => `${r.what} since ${r.since}`);
  assert.deepEqual(later, [], `later than the package's version ${VERSION} (or ${NEXT}, the release of what [Unreleased] lists)`);
  const unknown = records.filter((r) => !RELEASES.includes(r.since) && !upcoming(r.since)).map((r) => `${r.what} since ${r.since}`);
  assert.deepEqual(unknown, [], `a release CHANGELOG.md does not list (${RELEASES.join(', ')})`);
});

test("the docs name the package's tarball by its version, and release tags the changelog lists", () => {
  const wrong: string[] = [];
  for (const page of repositoryFiles().filter((f) => f.endsWith('.md') && f !== 'CHANGELOG.md')) {
    const text = readFileSync(join(ROOT, page), 'utf8');
    for (const [, v] of text.matchAll(/crm-conformance-(\d+\.\d+\.\d+)\.tgz/g))
      if (v !== VERSION) wrong.push(`${page}: crm-conformance-${v}.tgz (the package packs to ${VERSION})`);
    // A release tag as the docs use it: `git checkout v0.2.0`, `….git#v0.2.0`, `git tag v0.2.0`.
    for (const [, v] of text.matchAll(/(?:checkout\s+|\.git#|tag\s+)v(\d+\.\d+\.\d+)\b/g))
      if (!RELEASES.includes(v)) wrong.push(`${page}: v${v} is no release of CHANGELOG.md`);
  }
  assert.deepEqual(wrong, []);
});
