import { endpoint } from '../contract.ts';
import { globalSettingsSchema, publicSettingsSchema, updateGlobalSettingsSchema } from '../schemas/settings.ts';

export const settingsEndpoints = {
  get: endpoint({
    operationId: 'getGlobalSettings',
    method: 'GET',
    path: '/settings',
    summary: 'The global settings: documentation, billing portal and community links (every signed-in person)',
    tags: ['settings'],
    auth: 'session',
    responses: { 200: globalSettingsSchema },
  }),
  getPublic: endpoint({
    operationId: 'getPublicSettings',
    method: 'GET',
    path: '/settings/public',
    summary: 'The documentation link the public Welcome page shows (no sign-in)',
    tags: ['settings'],
    auth: 'public',
    responses: { 200: publicSettingsSchema },
  }),
  update: endpoint({
    operationId: 'updateGlobalSettings',
    method: 'PUT',
    path: '/settings',
    summary: 'Replace the global settings; links must be absolute http(s) addresses (house admins)',
    tags: ['settings'],
    auth: 'session',
    permission: 'settings.manage',
    body: updateGlobalSettingsSchema,
    responses: { 200: globalSettingsSchema },
  }),
};
