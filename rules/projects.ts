import { computedValues, rule, type Rule } from './types.js';

const E = { endpoint: 'POST /projects' };
const CREATE = '`POST /projects`: body requires `name` (string); other Project fields optional.';

/** Project create. */
export const projectRules: Rule[] = [
  rule('PROJ-1', 'MUST', 'projects', { section: 'Projects', quote: CREATE, reading: 'the fields sent are the Project created: they come back on it' },
    'POST /projects answers a Project carrying the fields sent', E),
  rule('PROJ-2', 'MUST', 'projects', { section: 'Projects', quote: 'Response: Project (status `Open`, `custom_fields` may be empty).' }, 'a created Project has status Open', E),
  rule('PROJ-3', 'MUST', 'projects', { section: 'Projects', quote: '`POST /projects`: body requires `name` (string)', reading: 'a body without the required name creates nothing (the refusal status is not shown)' },
    'name is required on project create: a body without it creates nothing', E),
  rule('PROJ-4', 'MUST', 'projects', computedValues('project create'), 'project create returns computed custom field values: option names instead of option ids', E),
  rule('PROJ-5', 'MUST', 'projects', { section: 'Projects', quote: 'other Project fields optional' },
    'the other Project fields are optional: a body with only name (and tags) creates a Project whose absent fields are null and lists []', E),
];
