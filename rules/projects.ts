import { rule, type Rule } from './types.js';

const P = 'issue 3 (records and searches)';
const pending = { pending: P };

/** Project create. */
export const projectRules: Rule[] = [
  rule('PROJ-1', 'MUST', 'projects', 'Projects', 'POST /projects answers a Project carrying the fields sent', { endpoint: 'POST /projects', ...pending }),
  rule('PROJ-2', 'MUST', 'projects', 'Projects', 'a created Project has status Open', { endpoint: 'POST /projects', ...pending }),
  rule('PROJ-3', 'MUST', 'projects', 'Projects', 'name is required on project create: a body without it creates nothing', { endpoint: 'POST /projects', ...pending }),
  rule('PROJ-4', 'MUST', 'projects', 'Shared shapes', 'project create returns computed custom field values: option names instead of option ids', { endpoint: 'POST /projects', ...pending }),

];
