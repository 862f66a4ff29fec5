/**
 * spec § Endpoints → Tasks (`POST /tasks/search`), § Limits: property-based. A random task set
 * (related to fresh projects, and to an opportunity: a fixture of the profile, or a new one) is created
 * in a fresh namespace through the profile's task-create extension; random filters run against
 * it and the answers are compared with the model of the spec (generators/search-model.ts).
 * A counterexample also counts against the rules of its criteria (annotated when it fails).
 * Replay a counterexample with CRM_FC_SEED (and CRM_FC_RUNS); see the attached counterexample.txt.
 */
import { needTaskCreate } from '../support/search.js';
import { RANDOM_TAG } from '../support/property.js';
import { criteriaProperty, orderProperty } from './properties.js';
import { rule, test } from '../support/fixtures/test.js';

// The two properties are independent and the longest tests of the run: they may run side by side.
test.describe.configure({ mode: 'parallel' });

test(
  ...rule(
    'SEARCH-5',
    'property: random task criteria, combined with AND, select what the model of the spec selects',
    async ({ api, ns, profile, target }, testInfo) => {
      needTaskCreate(profile);
      await criteriaProperty('tasks', { api, ns, profile, target }, testInfo);
    },
    { tag: [RANDOM_TAG], timeout: 240_000 },
  ),
);

test(
  ...rule(
    'SEARCH-4',
    'property: random task sorts, directions, page sizes and numbers give the pages the spec fixes',
    async ({ api, ns, profile, target }, testInfo) => {
      needTaskCreate(profile);
      await orderProperty('tasks', { api, ns, profile, target }, testInfo);
    },
    { tag: [RANDOM_TAG], timeout: 240_000 },
  ),
);
