import { rule, type Rule } from './types.js';

const E = { endpoint: 'POST /projects' };

/** Project create. */
export const projectRules: Rule[] = [
  rule('PROJ-1', 'MUST', 'projects', 'Projects', 'POST /projects answers a Project carrying the fields sent', E),
  rule('PROJ-2', 'MUST', 'projects', 'Projects', 'a created Project has status Open', E),
  rule('PROJ-3', 'MUST', 'projects', 'Projects', 'name is required on project create: a body without it creates nothing', E),
  rule('PROJ-4', 'MUST', 'projects', 'Shared shapes', 'project create returns computed custom field values: option names instead of option ids', E),
  rule('PROJ-5', 'MUST', 'projects', 'Projects', 'the other Project fields are optional: a body with only name (and tags) creates a Project whose absent fields are null and lists []', E),
];
