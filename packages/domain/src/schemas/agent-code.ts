import { z } from 'zod';

/** An agent type's code, as events and terms name it: a leaf, so schemas on both sides of agents.ts can read it. */
export const agentCodeSchema = z
  .string()
  .trim()
  .regex(/^[a-z0-9][a-z0-9_-]{1,39}$/, 'A code is 2 to 40 lowercase letters, digits, "-" or "_", starting with a letter or digit.');
