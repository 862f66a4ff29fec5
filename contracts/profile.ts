/**
 * The target profile (`CRM_PROFILE`): what the suite must know about a target that the
 * specification gives no way to create or discover. Exported as JSON Schema with the contracts.
 */
import { z } from 'zod';
import { identifier } from './base.js';

const option = z.object({ id: identifier, name: z.string() });

/** A custom field definition the target already has (definitions are "not shown" by the spec). */
export const CustomFieldFixture = z.object({
  id: identifier,
  data_type: z.enum(['Dropdown', 'MultiSelect', 'String', 'Float']),
  options: z.array(option).default([]),
  /** Entity types the definition is available on, e.g. ["project", "task", "person", "lead"]. */
  available_on: z.array(z.string()).default([]),
});
export type CustomFieldFixture = z.infer<typeof CustomFieldFixture>;

export const TargetProfile = z.object({
  /** Human name of the target, shown in reports. */
  name: z.string().default('target'),
  fixtures: z
    .object({
      /** Users of the account usable as `assignee_id` (at least one). */
      users: z.array(z.object({ id: identifier, email: z.string().optional() })).default([]),
      /** A Company with user activities of at least two types. */
      company_with_activities: z
        .object({
          company_id: identifier,
          activity_types: z.array(z.object({ id: identifier, category: z.string() })).min(2),
        })
        .optional(),
      /** A file attached to a record: its metadata is read with GET /{entity_type}/{entity_id}/files/{file_id}. */
      attached_file: z
        .object({
          entity_type: z.enum(['leads', 'people', 'opportunities', 'companies', 'projects']),
          entity_id: z.int(),
          file_id: z.int(),
        })
        .optional(),
      /** Custom field definitions with their options. */
      custom_fields: z
        .object({
          dropdown: CustomFieldFixture.optional(),
          multi_select: CustomFieldFixture.optional(),
          text: CustomFieldFixture.optional(),
          number: CustomFieldFixture.optional(),
        })
        .default({}),
      /**
       * A Lead custom field usable for upsert matching. The shape of a custom-field match is
       * "not shown": `match_field_name` is what the target expects in `match.field_name`.
       */
      lead_match_field: z.object({ definition_id: identifier, match_field_name: z.string() }).optional(),
      /** Project status ids and names (for `status_ids`/`statuses`). */
      project_statuses: z.array(option).default([]),
      /** Contact type ids and names of the account (for `contact_type_id`, e.g. of the Person a lead conversion creates). */
      contact_types: z.array(option).default([]),
      /**
       * Opportunities that tests may relate records to (tasks, files), instead of creating their
       * own: creating one takes a bulk call, and bulk calls are limited to 3 per second. Optional;
       * without them the tests create what they need.
       */
      opportunities: z.array(z.object({ id: identifier })).default([]),
      /** A record with a relationship that may be removed, when the target cannot create one. */
      relationship: z
        .object({
          entity: z.string(),
          entity_id: identifier,
          resource: z.object({ id: identifier, type: z.string() }),
        })
        .optional(),
    })
    .default({ users: [], custom_fields: {}, project_statuses: [], contact_types: [], opportunities: [] }),
  capabilities: z
    .object({
      /** Heavy specs (100,001-record cap) are allowed on this target. */
      heavy: z.boolean().default(false),
      /**
       * Documented extensions beyond the spec that let the suite create data it otherwise could not.
       * Each is a "METHOD /path" relative to the API root; absent ⇒ the suite judges without it.
       */
      extensions: z
        .object({
          /**
           * Creates a Task from a body of Task fields (name, status, priority, dates, related_resource,
           * tags, custom_fields) and answers it, e.g. "POST /tasks".
           */
          create_task: z.string().optional(),
          /** Follows a record as the calling user, e.g. "POST /{entity_type}/{entity_id}/follow" ({entity_type}: projects or tasks). */
          follow: z.string().optional(),
          create_activity: z.string().optional(),
          list_files: z.string().optional(),
        })
        .default({}),
      /** The target answers 429 above 3 bulk requests per second (the spec says "may"). */
      bulk_rate_limit: z.boolean().default(false),
      /**
       * Entries per bulk-create request (spec § Limits: 10, "may be raised or lowered, since the bulk
       * interface is in beta"): the documented 10 unless the target declares its own. At least 5:
       * the example tests send up to five entries in one request that must be accepted (BULK-5; the
       * bulk property and BULK-3's full request keep within the limit), so a lower one would fail a
       * conformant target there.
       */
      bulk_entries_limit: z
        .int()
        .min(5, 'must be at least 5: the bulk tests send up to 5 entries in one request that must be accepted (BULK-5)')
        .max(1000)
        .default(10),
      /** Notifications reach the suite's receivers at CRM_PUBLIC_URL. */
      webhook_delivery: z.boolean().default(true),
    })
    .default({ heavy: false, extensions: {}, bulk_rate_limit: false, bulk_entries_limit: 10, webhook_delivery: true }),
  oauth: z
    .object({
      /** Name of the application as the consent screen shows it. */
      application_name: z.string().optional(),
      /** Text the consent screen shows for the permission `developer/v1/all` (unset ⇒ not checked). */
      permission_text: z.string().optional(),
      /** Redirect URIs registered for the client; `{public}` is replaced by CRM_PUBLIC_URL. */
      redirect_uris: z.array(z.string()).default([]),
      /**
       * Overrides for finding the login and consent controls. Unset (the usual case), the suite finds
       * them by what they are: the e-mail or user field (an e-mail input, autocomplete username or
       * email, a name, id or label with user, e-mail or login), the password input, the form's submit
       * control, and the spec's "Authorize" and "Deny". Set one only where that finds the wrong
       * control or none: its accessible name (label, or button text), matched case-insensitively as
       * a substring. A label that matches nothing on the page (or an empty one) is not used.
       */
      screens: z
        .object({
          email_label: z.string().optional(),
          password_label: z.string().optional(),
          login_button: z.string().optional(),
          /** The button of an e-mail-first login's first step (the e-mail alone), where it is not the login button. */
          next_button: z.string().optional(),
          authorize_button: z.string().optional(),
          deny_button: z.string().optional(),
        })
        .default({}),
    })
    .default({ redirect_uris: [], screens: {} }),
});
export type TargetProfile = z.infer<typeof TargetProfile>;
