/**
 * spec § Endpoints → Projects (`POST /projects/search`), § Limits: property-based. A random
 * project set is created in a fresh namespace (one set per property); random filters run
 * against it and the answers are compared with the model of the spec (generators/search-model.ts).
 * A counterexample also counts against the rules of its criteria (annotated when it fails).
 * Replay a counterexample with CRM_FC_SEED (and CRM_FC_RUNS); see the attached counterexample.txt.
 */
import { RANDOM_TAG } from '../support/property.js';
import { criteriaProperty, orderProperty } from './properties.js';
import { rule, test } from '../support/fixtures/test.js';

// The two properties are independent and the longest tests of the run: they may run side by side.
test.describe.configure({ mode: 'parallel' });

test(
  ...rule(
    'SEARCH-5',
    'property: random project criteria, combined with AND, select what the model of the spec selects',
    async ({ api, ns, profile, target }, testInfo) => {
      await criteriaProperty('projects', { api, ns, profile, target }, testInfo);
    },
    { tag: [RANDOM_TAG], timeout: 240_000 },
  ),
);

test(
  ...rule(
    'SEARCH-4',
    'property: random project sorts, directions, page sizes and numbers give the pages the spec fixes',
    async ({ api, ns, profile, target }, testInfo) => {
      await orderProperty('projects', { api, ns, profile, target }, testInfo);
    },
    { tag: [RANDOM_TAG], timeout: 240_000 },
  ),
);
