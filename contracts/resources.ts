/**
 * Contracts of the resources (spec § "Resources and their fields").
 * One schema per concept; `z.infer` types beside them.
 */
import { z } from 'zod';
import {
  address, customFieldValue, emailEntry, identifier, list, nameParts, numericId, phoneEntry,
  recordBase, relatedResource, socialEntry, timestamp, websiteEntry,
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
  interaction_count: z.int(),
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
  interaction_count: z.int(),
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
  status: z.string(),
  status_id: identifier,
  monetary_unit: z.string().nullable(),
  monetary_value: z.number().nullable(),
  tags,
  custom_fields: customFields,
  interaction_count: z.int(),
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
  pipeline_id: identifier,
  pipeline_stage_id: identifier,
  primary_contact_id: identifier.nullable(),
  priority: z.string().nullable(),
  status: z.string(),
  tags,
  interaction_count: z.int(),
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
  id: numericId,
  close_date: slashDate.nullable(),
  pipeline_is_revenue: z.boolean(),
  pipeline_type: z.string(),
  monetary_unit: z.string().nullable(),
  converted_unit: z.unknown().nullable(),
  converted_value: z.unknown().nullable(),
  date_stage_changed: timestamp,
  date_last_contacted: timestamp.nullable(),
  leads_converted_from: list(z.unknown()),
  date_lead_created: timestamp.nullable(),
});
export type BulkOpportunity = z.infer<typeof BulkOpportunity>;

/** Project (spec § Project). Created with status `Open`. */
export const Project = recordBase.extend({
  related_resource: relatedResource.nullable(),
  assignee_id: identifier.nullable(),
  status: z.string(),
  details: z.string().nullable(),
  tags,
  custom_fields: customFields,
});
export type Project = z.infer<typeof Project>;

export const TaskStatus = z.enum(['Open', 'Completed']);

/** Task (spec § Task). `related_resource` is present; both its members may be null. */
export const Task = recordBase.extend({
  related_resource: relatedResource,
  assignee_id: identifier.nullable(),
  due_date: timestamp.nullable(),
  reminder_date: timestamp.nullable(),
  completed_date: timestamp.nullable(),
  priority: z.string(),
  status: TaskStatus,
  details: z.string().nullable(),
  tags,
  custom_fields: customFields,
  /** "present in some search results" */
  custom_activity_type_id: identifier.optional(),
});
export type Task = z.infer<typeof Task>;

/** Activity (spec § Activity). */
export const Activity = z.looseObject({
  id: identifier,
  parent: z.looseObject({ id: identifier, type: z.string() }),
  type: z.looseObject({ id: identifier, category: z.string() }),
  user_id: identifier,
  details: z.string(),
  activity_date: timestamp,
  old_value: z.unknown().nullable(),
  new_value: z.unknown().nullable(),
  date_created: timestamp,
  date_modified: timestamp,
});
export type Activity = z.infer<typeof Activity>;

export const PipelineStage = z.looseObject({ id: identifier, name: z.string(), win_probability: z.number() });
export type PipelineStage = z.infer<typeof PipelineStage>;

/** Pipeline (spec § Pipeline). Read only. */
export const Pipeline = z.looseObject({
  id: identifier,
  name: z.string(),
  stages: list(PipelineStage),
  type: z.enum(['opportunity', 'project', 'item']),
  is_revenue: z.boolean(),
});
export type Pipeline = z.infer<typeof Pipeline>;

export const WebhookType = z.enum(['lead', 'person', 'company', 'opportunity', 'project', 'task']);
export const WebhookEvent = z.enum(['new', 'update', 'delete']);

/** Webhook subscription (spec § Webhook subscription). */
export const WebhookSubscription = z.looseObject({
  id: identifier,
  target: z.string(),
  type: z.string(),
  event: z.string(),
  secret: z.record(z.string(), z.unknown()).nullable(),
  custom_field_computed_values: z.boolean(),
  created_at: timestamp,
});
export type WebhookSubscription = z.infer<typeof WebhookSubscription>;

/** `DELETE /webhooks/{id}` answers `{ id }`. */
export const WebhookDeleted = z.looseObject({ id: identifier });

/** Attached file metadata (spec § Attached file metadata). */
export const FileMetadata = z.looseObject({
  id: identifier,
  is_deleted: z.boolean(),
  file_name: z.string(),
  file_size: z.int().min(0),
  content_type: z.string(),
  creator_id: identifier,
  date_created: timestamp,
  date_modified: timestamp,
});
export type FileMetadata = z.infer<typeof FileMetadata>;

/** Signed upload instructions, step 1 of 3 (spec § Files). */
export const SignedUpload = z.looseObject({
  url: z.url(),
  method: z.literal('POST'),
  body: z.looseObject({
    policy: z.string(),
    signature: z.string(),
    storage_access_key_id: z.string(),
    security_token: z.string(),
    key: z.string(),
    acl: z.string(),
    success_action_status: z.union([z.string(), z.int()]),
  }),
  sample_curl: z.string(),
});
export type SignedUpload = z.infer<typeof SignedUpload>;

/** Account (spec § Account). Other keys of `settings`: not shown. */
export const Account = z.looseObject({
  id: identifier,
  name: z.string(),
  primary_timezone: z.string().min(1),
  settings: z.looseObject({
    setting_team_permissions_enabled: z.boolean(),
    setting_enable_leads: z.boolean(),
  }),
});
export type Account = z.infer<typeof Account>;

/** `POST /leads/{id}/convert` answer: `person`, `company`, and `opportunity` when created. */
export const ConvertResponse = z.looseObject({
  person: Person,
  company: Company.nullable().optional(),
  opportunity: Opportunity.nullable().optional(),
});
export type ConvertResponse = z.infer<typeof ConvertResponse>;

/** `DELETE /{entity}/{id}/related` answer. */
export const RelationshipRemoved = z.looseObject({
  removed: z.boolean(),
  resource: z.looseObject({ id: identifier, type: z.string() }),
});
export type RelationshipRemoved = z.infer<typeof RelationshipRemoved>;

/** OAuth token answer (spec § OAuth step 5): `token_type` is always `Bearer`. */
export const TokenResponse = z.looseObject({
  access_token: z.string().min(1),
  token_type: z.literal('Bearer'),
  scope: z.string(),
});
export type TokenResponse = z.infer<typeof TokenResponse>;

export const ProjectList = list(Project);
export const TaskList = list(Task);
export const ActivityList = list(Activity);
export const PipelineList = list(Pipeline);
