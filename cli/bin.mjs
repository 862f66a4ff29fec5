#!/usr/bin/env node
/**
 * The `crm-conformance` command. Plain JavaScript so that it runs from an installed package:
 * it registers tsx (a dependency) and hands over to the TypeScript entry point.
 */
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
