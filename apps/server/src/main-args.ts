import { parseArgs } from 'node:util';

/** One command of main.ts: what it takes, for its parsing and its usage. */
interface CommandSpec {
  /** Its arguments as the usage shows them. */
  args: string;
  /** What it does, one usage line each. */
  about: readonly string[];
  /** How npm runs it. */
  npm: string;
  /** Its flags besides --help: long, boolean ones. */
  flags: readonly string[];
  /** How many arguments it takes at most. */
  maxArgs: number;
}

export const COMMANDS = {
  serve: {
    args: '',
    about: ['migrate, create the first house admin if the database is empty, and serve'],
    npm: 'npm start',
    flags: [],
    maxArgs: 0,
  },
  migrate: { args: '', about: ['apply pending migrations'], npm: 'npm run db:migrate', flags: [], maxArgs: 0 },
  seed: {
    args: '[--demo]',
    about: [
      'create the first house admin if needed; --demo adds a demo hierarchy with agents,',
      'credits, an API key and 30 days of usage',
    ],
    npm: 'npm run db:seed --',
    flags: ['demo'],
    maxArgs: 0,
  },
  reconcile: {
    args: '',
    about: ['check every balance against the ledger; exits 1 on a difference'],
    npm: 'npm run db:reconcile',
    flags: [],
    maxArgs: 0,
  },
  backup: {
    args: '[FILE]',
    about: ['write a backup (default backups/console-<time>.tar.gz or .dump), also while the server runs'],
    npm: 'npm run db:backup --',
    flags: [],
    maxArgs: 1,
  },
  restore: {
    args: 'FILE',
    about: ['restore a backup into an empty DATA_DIR or an empty PostgreSQL database'],
    npm: 'npm run db:restore --',
    flags: [],
    maxArgs: 1,
  },
} as const satisfies Record<string, CommandSpec>;

export type CommandName = keyof typeof COMMANDS;

const ABOUT_COLUMN = 19;

/** Every command, for `main.ts --help` and an unknown command. */
export const USAGE = [
  'Usage: main.ts <command> [--help]',
  ...Object.entries(COMMANDS).flatMap(([name, spec]: [string, CommandSpec]) =>
    spec.about.map((line, i) =>
      i === 0 ? `  ${`${name} ${spec.args}`.padEnd(ABOUT_COLUMN - 2)}${line}` : `${' '.repeat(ABOUT_COLUMN)}${line}`,
    ),
  ),
].join('\n');

/** One command's usage, for its --help and its refusals. */
export function usageOf(command: CommandName): string {
  const spec: CommandSpec = COMMANDS[command];
  const args = spec.args ? ` ${spec.args}` : '';
  return [`Usage: main.ts ${command}${args}   (${spec.npm}${args})`, ...spec.about.map((line) => `  ${line}`)].join('\n');
}

export type CommandLine =
  | { kind: 'run'; command: CommandName; flags: ReadonlySet<string>; args: string[] }
  /** Printed on stdout, exit 0. */
  | { kind: 'help'; text: string }
  /** Printed on stderr, exit 2: the first line says what is wrong, the usage follows. */
  | { kind: 'refused'; text: string };

/**
 * Reads `main.ts <command> [flags] [args]` (no command: serve) before anything else runs: the
 * configuration is not read and nothing is opened for --help or a refusal. --help or -h
 * anywhere before `--` answers the usage; a flag the command does not know, a value given to a
 * flag, or one argument too many is refused, rather than taken for a file name. An argument
 * that begins with a dash goes after `--`.
 */
export function parseCommandLine(argv: readonly string[]): CommandLine {
  const [first = 'serve', ...rest] = argv;
  if (first === '--help' || first === '-h' || first === 'help') return { kind: 'help', text: USAGE };
  if (!Object.hasOwn(COMMANDS, first)) return { kind: 'refused', text: `Unknown command: ${first}\n${USAGE}` };
  const command = first as CommandName;
  const spec: CommandSpec = COMMANDS[command];
  const { tokens } = parseArgs({ args: [...rest], strict: false, allowPositionals: true, tokens: true });
  if (tokens.some((t) => t.kind === 'option' && (t.rawName === '--help' || t.rawName === '-h'))) {
    return { kind: 'help', text: usageOf(command) };
  }
  const refused = (problem: string): CommandLine => ({ kind: 'refused', text: `${problem}\n${usageOf(command)}` });
  const flags = new Set<string>();
  const args: string[] = [];
  for (const token of tokens) {
    if (token.kind === 'positional') {
      if (args.length >= spec.maxArgs) return refused(`Unexpected argument for ${command}: ${token.value}`);
      args.push(token.value);
    } else if (token.kind === 'option') {
      if (!spec.flags.some((flag) => token.rawName === `--${flag}`)) return refused(`Unknown option for ${command}: ${token.rawName}`);
      if (token.inlineValue) return refused(`The option ${token.rawName} of ${command} takes no value`);
      flags.add(token.name);
    }
  }
  return { kind: 'run', command, flags, args };
}
