/**
 * allure-playwright, with the conformance labels and a writer that does not `fsync`.
 *
 * Labels: each result gets epic = area, feature = endpoint (or spec section), story = rule id,
 * severity from the level (MUST critical, SHOULD normal, MAY minor), `rule` and `level` labels,
 * and a link to the rule's section of the spec. They are derived here, in the runner, from the
 * rule tags every conformance test carries (`@UPSERT-4 @MUST @leads`), rather than sent by
 * every test at run time (two runtime messages a test, each a reported step).
 *
 * allure-playwright's own writer (allure-js-commons FileSystemWriter) flushes every result and
 * attachment to the disk before going on: about 1,400 synchronous `fsync` calls a run, which
 * blocked the test runner's event loop for some 2.7 s (the runner also hands tests to the
 * workers, so they waited too). This writer writes the same files, each to a temporary name
 * renamed into place (so a reader never sees half a file), and leaves the flushing to the
 * operating system: a machine that crashes in the middle of a run loses the report of that run
 * either way.
 */
import { AllureReporter } from 'allure-playwright';
import { stringifyEnvInfo, type Writer } from 'allure-js-commons/sdk/reporter';
import { randomUUID } from 'node:crypto';
import { copyFileSync, linkSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { AREAS, getRule, hasRule, sectionAnchor } from '../rules/index.js';
import { loadConfig } from '../specs/support/core/config.js';

type AllureResult = Parameters<Writer['writeResult']>[0];

/** Adds the conformance labels and the spec link of the result's first rule tag (none without one). */
export function labelResult(result: AllureResult, specUrl: string): AllureResult {
  const id = result.labels.find((l) => l.name === 'tag' && l.value !== undefined && hasRule(l.value))?.value;
  if (!id) return result;
  const rule = getRule(id);
  const add = [
    { name: 'epic', value: AREAS[rule.area] },
    { name: 'feature', value: rule.endpoint ?? rule.section },
    { name: 'story', value: rule.id },
    { name: 'severity', value: rule.level === 'MUST' ? 'critical' : rule.level === 'SHOULD' ? 'normal' : 'minor' },
    { name: 'rule', value: rule.id },
    { name: 'level', value: rule.level },
  ];
  const names = new Set(add.map((l) => l.name));
  result.labels = [...result.labels.filter((l) => !names.has(l.name)), ...add];
  result.links = [...result.links, { url: `${specUrl}#${sectionAnchor(rule.section)}`, name: `spec § ${rule.section}`, type: 'link' }];
  return result;
}

/** Writes the files of allure-results, each atomically (temporary name, then rename), without fsync; labels each result. */
export class RenamingWriter implements Writer {
  private made = false;

  constructor(private readonly resultsDir: string, private readonly specUrl: string) {}

  private path(name: string): string {
    if (!this.made) {
      mkdirSync(this.resultsDir, { recursive: true });
      this.made = true;
    }
    return join(this.resultsDir, name);
  }

  private publish(name: string, write: (tmp: string) => void): void {
    const to = this.path(name);
    const tmp = join(dirname(to), `.allure-write-${randomUUID()}.tmp`);
    try {
      write(tmp);
      renameSync(tmp, to);
    } catch (err) {
      rmSync(tmp, { force: true });
      throw err;
    }
  }

  private json(name: string, data: unknown): void {
    this.publish(name, (tmp) => writeFileSync(tmp, JSON.stringify(data), 'utf8'));
  }

  writeResult(result: AllureResult): void { this.json(`${result.uuid}-result.json`, labelResult(result, this.specUrl)); }
  writeGroup(result: Parameters<Writer['writeGroup']>[0]): void { this.json(`${result.uuid}-container.json`, result); }
  writeAttachment(distFileName: string, content: Buffer): void { this.publish(distFileName, (tmp) => writeFileSync(tmp, content)); }
  // A hard link where it can (the same file system): a test's exchanges are written once and never
  // changed, and copying every one of them cost the runner some 0.3 s of a run.
  writeAttachmentFromPath(distFileName: string, from: string): void {
    this.publish(distFileName, (tmp) => { try { linkSync(from, tmp); } catch { copyFileSync(from, tmp); } });
  }
  writeEnvironmentInfo(info: Parameters<Writer['writeEnvironmentInfo']>[0]): void { this.publish('environment.properties', (tmp) => writeFileSync(tmp, stringifyEnvInfo(info), 'utf8')); }
  writeCategoriesDefinitions(categories: Parameters<Writer['writeCategoriesDefinitions']>[0]): void { this.json('categories.json', categories); }
  writeGlobals(distFileName: string, info: Parameters<Writer['writeGlobals']>[1]): void { this.json(distFileName, info); }
}

type Options = ConstructorParameters<typeof AllureReporter>[0];

export default class ConformanceAllureReporter extends AllureReporter {
  private readonly resultsDir: string;

  constructor(options: Options = {}) {
    super(options);
    this.resultsDir = options?.resultsDir ?? './allure-results';
  }

  onBegin(...args: Parameters<AllureReporter['onBegin']>): void {
    super.onBegin(...args);
    // The runtime is created in onBegin with the default writer: swap in ours before anything is written.
    (this as unknown as { allureRuntime: { writer: Writer } }).allureRuntime.writer = new RenamingWriter(this.resultsDir, loadConfig().specUrl);
  }
}
