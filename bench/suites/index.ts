import type { Suite } from '../lib/types.ts';
import { signIn } from './sign-in.ts';
import { usersMe } from './users-me.ts';
import { webSize } from './web-size.ts';

/** Every suite, in the order they run and appear in docs/benchmarks.md. Add new ones here. */
export const SUITES: Suite[] = [signIn, usersMe, webSize];
