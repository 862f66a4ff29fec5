#!/usr/bin/env node
/**
 * The `crm-conformance` command. Plain JavaScript so that it runs from an installed package:
 * it registers tsx (a dependency), as `node --import tsx` would (its CommonJS and ESM hooks: the
 * suite is a CommonJS package), and hands over to the TypeScript entry point.
 */
import { createRequire } from 'node:module';
import { register as registerCjs } from 'tsx/cjs/api';
import { register as registerEsm } from 'tsx/esm/api';

registerCjs();
registerEsm();
const { main } = createRequire(import.meta.url)('./main.ts');
process.exitCode = await main(process.argv.slice(2));
