/**
 * GET /account (spec § Account). Open choice `account.other-settings` ("Other keys of `settings`:
 * not shown"). Faults: reference/faults/account.ts.
 */
import type { AreaModule } from '../app.js';

export const account: AreaModule = {
  name: 'account',
  api(router, app) {
    router.add('GET', '/account', () => ({
      id: 10,
      // Stryker disable next-line StringLiteral: seed data; the spec fixes no account's name
      name: 'Reference Account',
      primary_timezone: 'Europe/Berlin',
      // Stryker disable BooleanLiteral,ObjectLiteral,StringLiteral: seed data, no setting's value is fixed (other keys: choice account.other-settings)
      settings: {
        setting_team_permissions_enabled: false,
        setting_enable_leads: true,
        ...(app.choice('account.other-settings') === 'other-key' ? { setting_other_key: 'x' } : {}),
      },
      // Stryker restore BooleanLiteral,ObjectLiteral,StringLiteral
    }));
  },
};
