/** `npm run rules:list`: rewrites rules/CONFORMANCE.md from the catalog and the test list. */
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { listTests, ROOT } from '../selftest/helpers.js';
import { renderConformanceList } from './list.js';

const tests = listTests();
writeFileSync(resolve(ROOT, 'rules/CONFORMANCE.md'), renderConformanceList(tests));
console.log(`rules/CONFORMANCE.md: ${tests.length} tests`);
