import { apiKeyExpiryProblem, createApiKeySchema } from '@console/domain';
import { format } from 'date-fns';
import { z } from 'zod';
import { MESSAGES } from './wording';

const k = MESSAGES.apiKeyPages;

/** An end date as the date field shows it: the day, in the viewer's time zone. */
export const dateInputOf = (iso: string | null): string => (iso ? format(new Date(iso), 'yyyy-MM-dd') : '');

/** The end date a chosen day means: the key stops at the end of that day, in the viewer's time zone. */
export const endOfDay = (day: string): string => new Date(`${day}T23:59:59.999`).toISOString();

/** Requests per minute as typed: '' for the default (null), otherwise a whole number of at least 1. */
export function rateLimitOf(text: string): number | null | undefined {
  if (text.trim() === '') return null;
  return /^\d+$/.test(text.trim()) && Number(text) >= 1 ? Number(text) : undefined;
}

/** The end date and rate limit fields, checked as the server checks them (the ceiling is the server's alone). */
export const lifecycleFields = {
  expires_on: z.string().superRefine((day, ctx) => {
    if (day === '') return;
    const problem = /^\d{4}-\d{2}-\d{2}$/.test(day) ? apiKeyExpiryProblem(endOfDay(day), Date.now()) : MESSAGES.apiKeys.expiryNotFuture;
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }),
  rate_limit: z.string().refine((text) => rateLimitOf(text) !== undefined, k.rateLimitInvalid),
};

/** The Create key form: the domain's name and scopes, with the optional end date and rate limit as typed. */
export const createKeyFormSchema = z.object({ ...createApiKeySchema.pick({ name: true, scopes: true }).shape, ...lifecycleFields });
export type CreateKeyForm = z.input<typeof createKeyFormSchema>;
