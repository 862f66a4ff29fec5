/**
 * Contracts of the resources (spec § "Resources and their fields").
 * One schema per concept; `z.infer` types beside them.
 *
 * Every field may be `null` ("Fields that are absent or empty are returned as `null`") unless a
 * sentence of the spec guarantees a value; each non-null field quotes its sentence. Lists are
 * never `null` ("lists as `[]`").
 */
import { z } from 'zod';
import {
  address,
  customFieldValue,
  emailEntry,
  identifier,
  list,
  nameParts,
  numericId,
  phoneEntry,
  recordBase,
  relatedResource,
  socialEntry,
  timestamp,
  websiteEntry,
} from './base.js';

const tags = list(z.string());
const customFields = list(customFieldValue);

/** Person (spec § Person). */
export const Person = recordBase.extend({
  ...nameParts,
  address: address.nullable(),
  /** owning user */
  assignee_id: identifier.nullable(),
  company_id: identifier.nullable(),
  company_name: z.string().nullable(),
  contact_type_id: identifier.nullable(),
  details: z.string().nullable(),
  emails: list(emailEntry),
  phone_numbers: list(phoneEntry),
  socials: list(socialEntry),
  websites: list(websiteEntry),
  tags,
  custom_fields: customFields,
  interaction_count: z.int().nullable(),
});
export type Person = z.infer<typeof Person>;

/** Company (spec § Company). `primary_contact_id` is "present on create/fetch responses". */
export const Company = recordBase.extend({
  address: address.nullable(),
  assignee_id: identifier.nullable(),
  contact_type_id: identifier.nullable(),
  details: z.string().nullable(),
  email_domain: z.string().nullable(),
  phone_numbers: list(phoneEntry),
  /** The table gives `identifier`; "absent or empty are returned as null" allows null when none is set. */
  primary_contact_id: identifier.nullable(),
  socials: list(socialEntry),
  websites: list(websiteEntry),
  tags,
  custom_fields: customFields,
  interaction_count: z.int().nullable(),
});
export type Company = z.infer<typeof Company>;

/** Lead (spec § Lead). `email` is "single email entry (not a list)". Initial status is `New`. */
export const Lead = recordBase.extend({
  ...nameParts,
  address: address.nullable(),
  assignee_id: identifier.nullable(),
  company_name: z.string().nullable(),
  customer_source_id: identifier.nullable(),
  details: z.string().nullable(),
  email: emailEntry.nullable(),
  phone_numbers: list(phoneEntry),
  socials: list(socialEntry),
  websites: list(websiteEntry),
  /** "status | string | initial value `New`"; § States and transitions: "Lead | status / status_id | `New` on creation by upsert". */
  status: z.string(),
  /** § States and transitions: "Lead | status / status_id | `New` on creation by upsert". */
  status_id: identifier,
  monetary_unit: z.string().nullable(),
  monetary_value: z.number().nullable(),
  tags,
  custom_fields: customFields,
  interaction_count: z.int().nullable(),
  date_last_contacted: timestamp.nullable(),
});
export type Lead = z.infer<typeof Lead>;

/** Opportunity (spec § Opportunity). The stage defaults to the first stage of the pipeline. */
export const Opportunity = recordBase.extend({
  assignee_id: identifier.nullable(),
  close_date: z.string().nullable(),
  company_id: identifier.nullable(),
  company_name: z.string().nullable(),
  customer_source_id: identifier.nullable(),
  details: z.string().nullable(),
  loss_reason_id: identifier.nullable(),
  /** "pipeline_id, pipeline_stage_id | identifier | stage defaults to the first stage of the pipeline": an Opportunity is always in a stage of a pipeline. */
  pipeline_id: identifier,
  /**
   * "stage defaults to the first stage of the pipeline" (§ Lead conversion: "When
   * `pipeline_stage_id` is omitted, the first stage of the pipeline is used.").
   */
  pipeline_stage_id: identifier,
  primary_contact_id: identifier.nullable(),
  priority: z.string().nullable(),
  /** "status | string | observed `Open`": observed values guarantee none. */
  status: z.string().nullable(),
  tags,
  interaction_count: z.int().nullable(),
  monetary_value: z.number().nullable(),
  win_probability: z.number().nullable(),
  custom_fields: customFields,
});
export type Opportunity = z.infer<typeof Opportunity>;

/** "in bulk create it is a slash-separated date string" */
export const slashDate = z.string().regex(/^\d{1,4}\/\d{1,2}\/\d{1,4}$/, 'close_date in bulk create is a slash-separated date string');

/**
 * A created entry of `POST /opportunities/bulk_create`: "the Opportunity object with a
 * numeric `id`", with the extra bulk fields.
 */
export const BulkOpportunity = Opportunity.extend({
  /** "A created entry is the Opportunity object with a numeric `id`." */
  id: numericId,
  close_date: slashDate.nullable(),
  /** "The bulk-create response also carries: …": carried (present), a value not guaranteed. */
  pipeline_is_revenue: z.boolean().nullable(),
  pipeline_type: z.string().nullable(),
  monetary_unit: z.string().nullable(),
  converted_unit: z.unknown().nullable(),
  converted_value: z.unknown().nullable(),
  date_stage_changed: timestamp.nullable(),
  date_last_contacted: timestamp.nullable(),
  leads_converted_from: list(z.unknown()),
  date_lead_created: timestamp.nullable(),
});
export type BulkOpportunity = z.infer<typeof BulkOpportunity>;

/** Project (spec § Project). Created with status `Open`. */
export const Project = recordBase.extend({
  /** "name | string (required on create)"; § Projects: "`POST /projects`: body requires `name` (string)". */
  name: z.string(),
  related_resource: relatedResource.nullable(),
  assignee_id: identifier.nullable(),
  /** § Projects: "Response: Project (status `Open`, `custom_fields` may be empty)"; searches select by it ("statuses | string[] | status names"). */
  status: z.string(),
  details: z.string().nullable(),
  tags,
  custom_fields: customFields,
  /** § Projects (search): "minimum_created_date, maximum_created_date | timestamp | none | bounds on creation time"; `sort_by` … `date_created`. */
  date_created: timestamp,
  /** § Projects (search): "minimum_modified_date, maximum_modified_date | timestamp | none | bounds on modification time"; `sort_by` … `date_modified`. */
  date_modified: timestamp,
});
export type Project = z.infer<typeof Project>;

export const TaskStatus = z.enum(['Open', 'Completed']);

/** Task (spec § Task). `related_resource` is present; both its members may be null. */
export const Task = recordBase.extend({
  /**
   * "related_resource | related_resource (both members may be null)": the spec gives the empty
   * form, an object of nulls (Project's is "related_resource or null").
   */
  related_resource: relatedResource,
  assignee_id: identifier.nullable(),
  due_date: timestamp.nullable(),
  reminder_date: timestamp.nullable(),
  completed_date: timestamp.nullable(),
  /** "priority | string (observed `None`, `High`)": observed values guarantee none. */
  priority: z.string().nullable(),
  /** "status | string: `Open` or `Completed`" */
  status: TaskStatus,
  details: z.string().nullable(),
  tags,
  custom_fields: customFields,
  /** "present in some search results": absent elsewhere, and `null` by the general rule. */
  custom_activity_type_id: identifier.nullable().optional(),
  /** § Tasks (search): "minimum_created_date, maximum_created_date | timestamp"; `sort_by` … `date_created`. */
  date_created: timestamp,
  /** § Tasks (search): "minimum_modified_date, maximum_modified_date | timestamp"; `sort_by` … `date_modified`. */
  date_modified: timestamp,
});
export type Task = z.infer<typeof Task>;

/** Activity (spec § Activity). */
export const Activity = z.looseObject({
  /** Addressed by it: "GET | `/activities/{activity_id}`". */
  id: identifier,
  /** "Activities (log entries attached to a record)": the record it is attached to. */
  parent: z.looseObject({ id: identifier, type: z.string() }),
  /** The activity kind, named by both members: "`{ activity_types: [ { id, category } ] }` filters the activity kinds". */
  type: z.looseObject({ id: identifier, category: z.string() }),
  user_id: identifier.nullable(),
  /** "details | string" guarantees no text: an activity with none has `details: null` (as real answers show). */
  details: z.string().nullable(),
  activity_date: timestamp.nullable(),
  old_value: z.unknown().nullable(),
  new_value: z.unknown().nullable(),
  date_created: timestamp.nullable(),
  date_modified: timestamp.nullable(),
});
export type Activity = z.infer<typeof Activity>;

export const PipelineStage = z.looseObject({
  /** A stage is addressed by it: "pipeline_stage_id | identifier | stage defaults to the first stage of the pipeline". */
  id: identifier,
  name: z.string().nullable(),
  win_probability: z.number().nullable(),
});
export type PipelineStage = z.infer<typeof PipelineStage>;

/** Pipeline (spec § Pipeline). Read only. */
export const Pipeline = z.looseObject({
  /** Opportunities name it: "pipeline_id | identifier". */
  id: identifier,
  name: z.string().nullable(),
  stages: list(PipelineStage),
  /** "type | string | `opportunity`, `project` or `item`" */
  type: z.enum(['opportunity', 'project', 'item']),
  is_revenue: z.boolean().nullable(),
});
export type Pipeline = z.infer<typeof Pipeline>;

export const WebhookType = z.enum(['lead', 'person', 'company', 'opportunity', 'project', 'task']);
export const WebhookEvent = z.enum(['new', 'update', 'delete']);

/** Webhook subscription (spec § Webhook subscription). */
export const WebhookSubscription = z.looseObject({
  /** § States and transitions: POST webhooks "response carries `id` and `created_at`". */
  id: identifier,
  /** Create parameters: "target | string | yes | valid URL of the receiving endpoint" (required). */
  target: z.string(),
  /** Create parameters: "type | string | yes" (required). */
  type: z.string(),
  /** Create parameters: "event | string | yes" (required). */
  event: z.string(),
  secret: z.record(z.string(), z.unknown()).nullable(),
  custom_field_computed_values: z.boolean().nullable(),
  /** § States and transitions: POST webhooks "response carries `id` and `created_at`". */
  created_at: timestamp,
});
export type WebhookSubscription = z.infer<typeof WebhookSubscription>;

/** `DELETE /webhooks/{id}` answers `{ id }`: "subscription removed | response carries `id`" (§ States and transitions). */
export const WebhookDeleted = z.looseObject({ id: identifier });

/** Attached file metadata (spec § Attached file metadata). */
export const FileMetadata = z.looseObject({
  /** Addressed by it: "GET | `/{entity_type}/{entity_id}/files/{file_id}`". */
  id: identifier,
  is_deleted: z.boolean().nullable(),
  file_name: z.string().nullable(),
  file_size: z.int().min(0).nullable(),
  content_type: z.string().nullable(),
  creator_id: identifier.nullable(),
  date_created: timestamp.nullable(),
  date_modified: timestamp.nullable(),
});
export type FileMetadata = z.infer<typeof FileMetadata>;

/** Signed upload instructions, step 1 of 3 (spec § Files). */
export const SignedUpload = z.looseObject({
  /** "Step 2 is a multipart form POST to `url`". */
  url: z.url(),
  /** "`method` (string, `POST`)" */
  method: z.literal('POST'),
  /**
   * Step 2 sends every member as a form field: "with the form fields `key`, `signature`,
   * `success_action_status`, `acl`, `policy`, `storage_access_key_id`, `x-storage-security-token`
   * (the value of `security_token`)".
   */
  body: z.looseObject({
    policy: z.string(),
    signature: z.string(),
    storage_access_key_id: z.string(),
    security_token: z.string(),
    key: z.string(),
    acl: z.string(),
    success_action_status: z.union([z.string(), z.int()]),
  }),
  sample_curl: z.string().nullable(),
});
export type SignedUpload = z.infer<typeof SignedUpload>;

/** Account (spec § Account). Other keys of `settings`: not shown. */
export const Account = z.looseObject({
  /** The account's identity, as `id` is a record's (no sentence beyond "id | identifier"). */
  id: identifier,
  name: z.string().nullable(),
  primary_timezone: z.string().min(1).nullable(),
  /**
   * "settings | object with boolean `setting_team_permissions_enabled`, `setting_enable_leads`":
   * the object and its two booleans are stated, not just typed.
   */
  settings: z.looseObject({
    setting_team_permissions_enabled: z.boolean(),
    setting_enable_leads: z.boolean(),
  }),
});
export type Account = z.infer<typeof Account>;

/** `POST /leads/{id}/convert` answer: `person`, `company`, and `opportunity` when created. */
export const ConvertResponse = z.looseObject({
  /** "Result: Lead no longer exists | Other effects: A Person is created"; "Response: object with `person` (Person), …". */
  person: Person,
  company: Company.nullable().optional(),
  opportunity: Opportunity.nullable().optional(),
});
export type ConvertResponse = z.infer<typeof ConvertResponse>;

/** `DELETE /{entity}/{id}/related` answer. */
export const RelationshipRemoved = z.looseObject({
  /** The answer's shape is given whole: "Response: `{ removed: boolean, resource: { id, type } }`". */
  removed: z.boolean(),
  /** The resource sent ("body `{ resource: { id, type } }`") comes back in the answer. */
  resource: z.looseObject({ id: identifier, type: z.string() }),
});
export type RelationshipRemoved = z.infer<typeof RelationshipRemoved>;

/** OAuth token answer (spec § OAuth step 5): `token_type` is always `Bearer`. */
export const TokenResponse = z.looseObject({
  /** "Calls to the API send `Authorization: Bearer <ACCESS_TOKEN>`"; "`scope` (the granted scope)". */
  access_token: z.string().min(1),
  token_type: z.literal('Bearer'),
  scope: z.string(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

export const ProjectList = list(Project);
export const TaskList = list(Task);
export const ActivityList = list(Activity);
export const PipelineList = list(Pipeline);
