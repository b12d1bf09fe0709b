import { endpoint } from '../contract.ts';
import { alertLineInputSchema, alertLineParamsSchema, alertLineSchema, alertLinesResponseSchema } from '../schemas/alert-lines.ts';
import { idParamsSchema } from '../schemas/organizations.ts';

export const alertLinesEndpoints = {
  list: endpoint({
    operationId: 'listAlertLines',
    method: 'GET',
    path: '/organizations/:id/alert-lines',
    summary: "An organization's alert lines with the bound each states and whether it is crossed now",
    tags: ['billing'],
    auth: 'session',
    permission: 'billing.view',
    params: idParamsSchema,
    responses: { 200: alertLinesResponseSchema },
  }),
  create: endpoint({
    operationId: 'createAlertLine',
    method: 'POST',
    path: '/organizations/:id/alert-lines',
    summary: 'Add an alert line: a balance, a percent of the spend cap, or days of runway (its own admins)',
    tags: ['billing'],
    auth: 'session',
    permission: 'billing.manage',
    params: idParamsSchema,
    body: alertLineInputSchema,
    responses: { 201: alertLineSchema },
    errors: [422],
  }),
  update: endpoint({
    operationId: 'updateAlertLine',
    method: 'PUT',
    path: '/organizations/:id/alert-lines/:lineId',
    summary: "Change an alert line's bound (and a cap line's window); its kind stays (its own admins)",
    tags: ['billing'],
    auth: 'session',
    permission: 'billing.manage',
    params: alertLineParamsSchema,
    body: alertLineInputSchema,
    responses: { 200: alertLineSchema },
    errors: [422],
  }),
  remove: endpoint({
    operationId: 'deleteAlertLine',
    method: 'DELETE',
    path: '/organizations/:id/alert-lines/:lineId',
    summary: 'Delete an alert line (its own admins)',
    tags: ['billing'],
    auth: 'session',
    permission: 'billing.manage',
    params: alertLineParamsSchema,
    responses: { 204: null },
  }),
};
