/**
 * Open choices of file attachments (spec § Files). Usage: see rules/choices/types.ts.
 */
import { defineChoices } from './types.js';

export const FILES_CHOICES = defineChoices([
  {
    id: 'files.upload-url',
    section: 'Files',
    source: 'Signed upload response: `url` (string) … Step 2 is a multipart form POST to `url` …',
    alternatives: [
      { name: 'upload-path', description: 'url is <api origin>/_storage/upload' },
      { name: 'bucket-path', description: 'url is <api origin>/_storage/buckets/<bucket>' },
    ],
  },
  {
    id: 'files.step2-answer',
    section: 'Files',
    source: 'Step 3 (attaching the uploaded file to the record) and the response to step 2: not shown.',
    alternatives: [
      { name: '201-xml', description: 'success_action_status "201": step 2 answers 201 with an XML PostResponse' },
      { name: '204-empty', description: 'success_action_status 204: step 2 answers 204 without a body' },
    ],
  },
  {
    id: 'files.success-action-status-type',
    section: 'Files',
    source: '`body` (object with `policy`, `signature`, `storage_access_key_id`, `security_token`, `key`, `acl`, `success_action_status`) (their types: not shown)',
    alternatives: [
      { name: 'string', description: 'body.success_action_status is a string' },
      { name: 'number', description: 'body.success_action_status is a number' },
    ],
  },
  {
    id: 'files.acl',
    section: 'Files',
    source: '`body` (object with … `acl` …) (its value: not shown)',
    alternatives: [
      { name: 'private', description: 'acl "private"' },
      { name: 'bucket-owner-full-control', description: 'acl "bucket-owner-full-control"' },
    ],
  },
  {
    id: 'files.refusal-status',
    section: 'Files',
    source: 'Path parameters: `entity_type` is one of `leads`, `people`, `opportunities`, `companies`, `projects`; `entity_id` and `file_id` are numbers. (The refusal of other values: not shown.)',
    alternatives: [
      { name: 'type-404-id-400', description: 'an unknown entity_type answers 404, a non-numeric id 400' },
      { name: 'type-400-id-404', description: 'an unknown entity_type answers 400, a non-numeric id 404' },
    ],
  },
  {
    id: 'files.max-upload',
    section: 'Limits',
    source: 'Maximum upload size | file attachments | not shown',
    alternatives: [
      { name: '1-mib', description: 'step 2 refuses files over 1 MiB' },
      { name: '4-mib', description: 'step 2 refuses files over 4 MiB' },
    ],
  },
]);
