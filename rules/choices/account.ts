/**
 * Open choices of the account and pipelines (spec § Account, § Pipeline). Usage: see
 * rules/choices/types.ts.
 */
import { defineChoices } from './types.js';

export const ACCOUNT_CHOICES = defineChoices([
  {
    id: 'account.other-settings',
    section: 'Account',
    source: 'Other keys of `settings`: not shown.',
    alternatives: [
      { name: 'none', description: 'settings carries only the keys the spec lists' },
      { name: 'other-key', description: 'settings also carries setting_other_key' },
    ],
  },
]);
