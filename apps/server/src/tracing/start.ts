/**
 * Imported first by main.ts, so that it runs before any module that loads `pg`: starts the
 * traces of `serve` when an OTLP endpoint is configured (tracing.ts). Other commands
 * (migrate, seed, backup) are not traced.
 */
import { startTracing } from './tracing.ts';

if (process.argv[2] === 'serve') startTracing(process.env);
