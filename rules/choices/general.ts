/**
 * Open choices shared by every area: identifiers, extra members, statuses and bodies of the
 * errors the spec does not show. Usage: see rules/choices/types.ts; the reference server reads
 * them with `app.choice('<id>')`.
 */
import { defineChoices } from './types.js';

export const GENERAL_CHOICES = defineChoices([
  {
    id: 'ids.sequence',
    section: 'Resources and their fields',
    source: 'id | identifier (the format of identifiers, their range and whether consecutive records get consecutive ids: not shown).',
    alternatives: [
      { name: 'sequential', description: 'ids of new records count up by 1 from 1000' },
      { name: 'gapped', description: 'ids of new records start at 7,000,001 and leave gaps of 7' },
      { name: 'large', description: 'ids of new records start above 2^31 (3,000,000,001) and leave gaps of 1,001' },
      { name: 'per-kind', description: 'each kind of record counts its own ids up by 1 from 1 (a Company, a Project and a Task may have the same id; small numbers that other members may equal)' },
    ],
  },
  {
    id: 'general.extra-fields',
    section: 'Resources and their fields',
    source: 'Members beyond the fields listed for a resource: not stated (clients must ignore what they do not know).',
    alternatives: [
      { name: 'none', description: 'answers carry exactly the listed members' },
      { name: 'extra-members', description: 'records, subscriptions, pipelines, settings, signed uploads and some error bodies carry members the spec does not list' },
    ],
  },
  {
    id: 'general.create-status',
    section: 'Endpoints',
    source: '`POST /people`: … response is Person. (The success status of a create is not shown.)',
    alternatives: [
      { name: '200', description: 'creates answer 200' },
      { name: '201', description: 'creates (people, companies, projects, tasks, webhook subscriptions) answer 201' },
    ],
  },
  {
    id: 'errors.body',
    section: 'Errors',
    source: 'Status codes for missing records, missing or bad credentials or permissions, and the general error body: not shown.',
    alternatives: [
      { name: 'message', description: '{ success: false, status, message }' },
      { name: 'errors-list', description: '{ errors: [{ code?, field?, detail }] }' },
      { name: 'error-string', description: '{ error: <message> }' },
    ],
  },
  {
    id: 'errors.validation-status',
    section: 'Errors',
    source: 'Status codes … and the general error body: not shown. (An ill-formed body, an unknown referenced record: the status is not shown.)',
    alternatives: [
      { name: '422', description: 'ill-formed requests answer 422' },
      { name: '400', description: 'ill-formed requests answer 400' },
    ],
  },
  {
    id: 'errors.credentials-status',
    section: 'Errors',
    source: 'Status codes for … missing or bad credentials or permissions …: not shown.',
    alternatives: [
      { name: '401', description: 'missing or bad credentials answer 401' },
      { name: '403', description: 'missing or bad credentials answer 403' },
    ],
  },
  {
    id: 'errors.malformed-json-status',
    section: 'Errors',
    source: 'Status codes … and the general error body: not shown. (A body that is not JSON.)',
    alternatives: [
      { name: '400', description: 'a body that is not JSON answers 400' },
      { name: '422', description: 'a body that is not JSON answers 422' },
    ],
  },
  {
    id: 'errors.unsupported-method',
    section: 'Errors',
    source: 'Status codes for missing records … and the general error body: not shown. (A method the path does not serve, e.g. listing or updating subscriptions: not shown.)',
    alternatives: [
      { name: '405', description: 'a method a path does not serve answers 405 with Allow' },
      { name: '404', description: 'a method a path does not serve answers 404, as an unknown path does' },
    ],
  },
]);
