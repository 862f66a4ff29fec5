/**
 * Contracts of the request bodies the specification shows (spec § Endpoints, § Authentication).
 * These describe what a client may send; the suite validates its own generated inputs with them.
 */
import { z } from 'zod';
import { address, customFieldValue, emailEntry, identifier, phoneEntry, timestamp } from './base.js';
import { WebhookEvent, WebhookType } from './resources.js';

/** `tags`: "string[] or object; the object form is `{ option: "ANY", value: [tags] }`". */
export const TagsFilter = z.union([z.array(z.string()), z.object({ option: z.literal('ANY'), value: z.array(z.string()) })]);

/** `custom_fields` filter entry: `allow_empty`, or `minimum_value`/`maximum_value`. */
export const CustomFieldFilter = z.object({
  custom_field_definition_id: identifier,
  allow_empty: z.boolean().optional(),
  minimum_value: z.number().optional(),
  maximum_value: z.number().optional(),
});

const paging = {
  page_number: z.int().optional(),
  page_size: z.int().optional(),
  sort_direction: z.enum(['asc', 'desc']).optional(),
};

export const ProjectSortField = z.enum(['name', 'assigned_to', 'related_to', 'status', 'date_modified', 'date_created']);
export const TaskSortField = z.enum([
  'name',
  'assigned_to',
  'related_to',
  'status',
  'priority',
  'due_date',
  'reminder_date',
  'completed_date',
  'date_created',
  'date_modified',
]);
export const Followed = z.union([z.literal(1), z.literal(2)]);

/** `POST /projects/search` filter (spec § Projects). Criteria combine with AND. */
export const ProjectSearch = z.object({
  ids: z.array(identifier).optional(),
  ...paging,
  sort_by: ProjectSortField.optional(),
  name: z.string().optional(),
  assignee_ids: z.array(identifier).optional(),
  status_ids: z.array(identifier).optional(),
  tags: TagsFilter.optional(),
  followed: Followed.optional(),
  minimum_created_date: timestamp.optional(),
  maximum_created_date: timestamp.optional(),
  minimum_modified_date: timestamp.optional(),
  maximum_modified_date: timestamp.optional(),
  statuses: z.array(z.string()).optional(),
  custom_fields: z.array(CustomFieldFilter).optional(),
});
export type ProjectSearch = z.infer<typeof ProjectSearch>;

/** `POST /tasks/search` filter (spec § Tasks). */
export const TaskSearch = z.object({
  ids: z.array(identifier).optional(),
  ...paging,
  sort_by: TaskSortField.optional(),
  assignee_ids: z.array(identifier).optional(),
  opportunity_ids: z.array(identifier).optional(),
  project_ids: z.array(identifier).optional(),
  statuses: z.array(z.enum(['Open', 'Completed'])).optional(),
  tags: TagsFilter.optional(),
  followed: Followed.optional(),
  minimum_due_date: timestamp.optional(),
  maximum_due_date: timestamp.optional(),
  minimum_created_date: timestamp.optional(),
  maximum_created_date: timestamp.optional(),
  minimum_modified_date: timestamp.optional(),
  maximum_modified_date: timestamp.optional(),
  custom_fields: z.array(CustomFieldFilter).optional(),
});
export type TaskSearch = z.infer<typeof TaskSearch>;

/** `POST /people` body: Person fields (`name`, `emails`, `address`, `phone_numbers` are shown). */
export const PersonCreate = z
  .object({
    name: z.string().optional(),
    emails: z.array(emailEntry).optional(),
    address: address.partial().optional(),
    phone_numbers: z.array(phoneEntry).optional(),
    tags: z.array(z.string()).optional(),
    custom_fields: z.array(customFieldValue).optional(),
  })
  .catchall(z.unknown());
export type PersonCreate = z.infer<typeof PersonCreate>;

/** `POST /companies` body (`name`, `address`, `email_domain`, `details`, `phone_numbers`, `primary_contact_id` shown). */
export const CompanyCreate = z
  .object({
    name: z.string().optional(),
    address: address.partial().optional(),
    email_domain: z.string().optional(),
    details: z.string().optional(),
    phone_numbers: z.array(phoneEntry).optional(),
    primary_contact_id: identifier.optional(),
    tags: z.array(z.string()).optional(),
  })
  .catchall(z.unknown());
export type CompanyCreate = z.infer<typeof CompanyCreate>;

/** `POST /projects` body: "requires `name` (string); other Project fields optional". */
export const ProjectCreate = z.object({
  name: z.string(),
  related_resource: z.object({ id: identifier, type: z.string() }).optional(),
  assignee_id: identifier.nullable().optional(),
  status: z.string().optional(),
  details: z.string().optional(),
  tags: z.array(z.string()).optional(),
  custom_fields: z.array(customFieldValue).optional(),
});
export type ProjectCreate = z.infer<typeof ProjectCreate>;

/** `PUT /activities/{id}` body. */
export const ActivityUpdate = z.object({ activity_date: timestamp, details: z.string() });
export type ActivityUpdate = z.infer<typeof ActivityUpdate>;

/** `POST /companies/{id}/activities` body: `{ activity_types: [ { id, category } ] }`. */
export const CompanyActivitiesQuery = z.object({
  activity_types: z.array(z.object({ id: identifier, category: z.string() })),
});

/** `PUT /leads/upsert` body: `{ properties, match: { field_name, field_value } }`. */
export const LeadUpsert = z.object({
  properties: z.record(z.string(), z.unknown()),
  match: z.object({ field_name: z.string(), field_value: z.unknown() }),
});
export type LeadUpsert = z.infer<typeof LeadUpsert>;

/** `POST /leads/{id}/convert` body: `{ details: { person?, company?, opportunity? } }`. */
export const LeadConvert = z.object({
  details: z.object({
    person: z.object({ name: z.string().optional(), contact_type_id: identifier.optional(), assignee_id: identifier.optional() }).optional(),
    /** `id` or `name` (mutually exclusive), optional boolean `exact_match`. */
    company: z
      .object({ id: identifier.optional(), name: z.string().optional(), exact_match: z.boolean().optional() })
      .refine((c) => c.id === undefined || c.name === undefined, 'company takes `id` or `name`, not both (mutually exclusive)')
      .optional(),
    opportunity: z
      .object({
        name: z.string().optional(),
        pipeline_id: identifier.optional(),
        pipeline_stage_id: identifier.optional(),
        monetary_value: z.number().optional(),
        assignee_id: identifier.optional(),
      })
      .optional(),
  }),
});
export type LeadConvert = z.infer<typeof LeadConvert>;

/** One entry of a bulk create: a single-create Opportunity body. */
export const OpportunityCreate = z
  .object({
    name: z.string().optional(),
    primary_contact_id: identifier.optional(),
    assignee_id: identifier.optional(),
    close_date: z.string().optional(),
    details: z.string().optional(),
    monetary_value: z.number().optional(),
    pipeline_id: identifier.optional(),
    priority: z.string().optional(),
    status: z.string().optional(),
    tags: z.array(z.string()).optional(),
    win_probability: z.number().optional(),
    custom_fields: z.array(customFieldValue).optional(),
    customer_source_id: identifier.optional(),
  })
  .catchall(z.unknown());
export type OpportunityCreate = z.infer<typeof OpportunityCreate>;

/** `POST /opportunities/bulk_create` body. */
export const BulkCreate = z.object({ opportunities: z.array(OpportunityCreate) });
export type BulkCreate = z.infer<typeof BulkCreate>;

/** `POST /webhooks` parameters. */
export const WebhookCreate = z.object({
  target: z.url(),
  type: WebhookType,
  event: WebhookEvent,
  secret: z.record(z.string(), z.unknown()).optional(),
  custom_field_computed_values: z.boolean().optional(),
});
export type WebhookCreate = z.infer<typeof WebhookCreate>;

/** `DELETE /{entity}/{id}/related` body. */
export const RelationshipRemove = z.object({ resource: z.object({ id: identifier, type: z.string() }) });
export type RelationshipRemove = z.infer<typeof RelationshipRemove>;

/** `GET {auth_url}/oauth/authorize` parameters (spec § OAuth step 1). */
export const AuthorizeParams = z.object({
  response_type: z.literal('code'),
  client_id: z.string(),
  redirect_uri: z.url(),
  scope: z.literal('developer/v1/all'),
  state: z.string().optional(),
});
export type AuthorizeParams = z.infer<typeof AuthorizeParams>;

/** `POST {auth_url}/oauth/token` form parameters (spec § OAuth step 4). */
export const TokenRequest = z.object({
  grant_type: z.literal('authorization_code'),
  code: z.string(),
  redirect_uri: z.url(),
  client_id: z.string(),
  client_secret: z.string(),
});
export type TokenRequest = z.infer<typeof TokenRequest>;

/** The POST to `redirect_uri` (spec § OAuth step 3): `code` on success, `error` instead otherwise. */
export const CallbackSuccess = z.looseObject({ code: z.string().min(1), state: z.string().optional() });
export const CallbackError = z.looseObject({ error: z.string().min(1) }).refine((v) => !('code' in v), 'a denial carries no code');
