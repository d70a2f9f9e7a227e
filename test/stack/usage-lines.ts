/**
 * Reads the usage texts the operator CLIs print into one line per command form, in one spelling
 * whichever CLI printed it: `campaigns send --id ID [--at ISO8601]`. Layout (indentation,
 * continuation lines, `usage:` and `npm run admin --` prefixes) and trailing remarks in parentheses
 * are dropped; anything else that is not a usage line is an error, so a new form of line cannot be
 * skipped unseen.
 */

/** The groups `node scripts/admin.mjs` alone lists: `<accounts|users|…|quickstart> <command> [options]`. */
export function groupsOf(dispatcherUsage: string): string[] {
  const list = /npm run admin -- <([a-z|-]+)> <command>/.exec(dispatcherUsage)?.[1];
  if (list === undefined) throw new Error(`no group list in the dispatcher's usage:\n${dispatcherUsage}`);
  return list.split('|');
}

/** `webhooks <command> [options]`: the lines after it name only the command. */
const GROUP_HEADER = /^(\S+) <command> \[options\]$/;
/** The webhooks CLI lists the values `--events` takes after its commands. */
const VALUE_LIST = /^event types: /;
/** A line relative to a group header: a command, then options only. */
const RELATIVE_LINE = /^[a-z][a-z-]*(?: (?:--|\[|\().*)?$/;

function withoutLayout(raw: string): string {
  return raw
    .replace(/^\s*usage:/, '')
    .replace(/\s{2,}\(.*\)\s*$/, '') // a remark such as "(draft only)", set apart by two spaces or more
    .trim()
    .replace(/^npm run admin -- /, '')
    .replace(/\s+/g, ' ');
}

/** The usage lines in one CLI's output (which starts at its first `usage:`). */
export function usageLinesOf(printed: string, groups: readonly string[]): string[] {
  const start = printed.indexOf('usage:');
  if (start < 0) throw new Error(`no usage text in:\n${printed}`);
  const lines: string[] = [];
  let headerGroup: string | undefined;
  for (const raw of printed.slice(start).split('\n')) {
    const text = withoutLayout(raw);
    const header = GROUP_HEADER.exec(text);
    const last = lines.length - 1;
    if (text === '' || VALUE_LIST.test(text)) continue;
    if (header) headerGroup = header[1];
    else if (/^(?:\[|--)/.test(text) && last >= 0) lines[last] = `${lines[last]} ${text}`;
    else if (groups.includes(text.split(' ')[0]!)) lines.push(text);
    else if (headerGroup !== undefined && RELATIVE_LINE.test(text)) lines.push(`${headerGroup} ${text}`);
    else throw new Error(`cannot read usage line "${raw.trim()}" in:\n${printed}`);
  }
  return lines;
}

/** What one usage line promises: its group, the commands it names, its options and listed option values. */
export interface UsageTerms {
  group: string;
  /** `approve|pause --id ID` names two; empty for a group that is its own command (`quickstart`). */
  commands: string[];
  options: string[];
  /** `--plan free|pro`: every value the line lists for an option. */
  values: Map<string, string[]>;
}

export function termsOf(line: string): UsageTerms {
  const [group = '', second = '', ...rest] = line.split(' ');
  const commands = second === '' || second.startsWith('-') || second.startsWith('[') ? [] : second.split('|');
  const options = [...new Set([...line.matchAll(/--([a-z][a-z-]*)/g)].map((match) => match[1]!))];
  const tokens = rest.map((token) => token.replace(/[[\]()]/g, ''));
  const values = new Map<string, string[]>();
  tokens.forEach((token, index) => {
    const option = /^--([a-z][a-z-]*)$/.exec(token)?.[1];
    const listed = tokens[index + 1] ?? '';
    if (option !== undefined && /^[a-z]+(?:\|[a-z]+)+$/.test(listed)) values.set(option, listed.split('|'));
  });
  return { group, commands, options, values };
}

/** The option names an argument list passes (`--name value` and `--name=value` alike). */
export const optionsPassed = (args: readonly string[]): string[] =>
  args.flatMap((arg) => /^--([a-z][a-z-]*)/.exec(arg)?.[1] ?? []);

/** The value passed for `option`, if any. */
export function valuePassed(args: readonly string[], option: string): string | undefined {
  const index = args.indexOf(`--${option}`);
  if (index >= 0) return args[index + 1];
  return args.find((arg) => arg.startsWith(`--${option}=`))?.slice(option.length + 3);
}

/**
 * What a usage line promises that its invocations leave untried: a command, an option or a listed
 * value none of them passes. Also what they pass that the line does not promise (an invocation filed
 * under the wrong line proves nothing about it).
 */
export function untried(line: string, invocations: ReadonlyArray<readonly string[]>): string[] {
  const { group, commands, options, values } = termsOf(line);
  const problems: string[] = [];
  for (const args of invocations) {
    if (args[0] !== group) problems.push(`"${args.join(' ')}" is not a ${group} command`);
    if (commands.length > 0 && !commands.includes(args[1] ?? ''))
      problems.push(`"${args.join(' ')}" runs no command of the line`);
    for (const option of optionsPassed(args))
      if (!options.includes(option))
        problems.push(`"${args.join(' ')}" passes --${option}, which the line does not list`);
  }
  const tried = (predicate: (args: readonly string[]) => boolean) => invocations.some(predicate);
  for (const command of commands)
    if (!tried((args) => args[1] === command)) problems.push(`command ${command} is never run`);
  for (const option of options)
    if (!tried((args) => optionsPassed(args).includes(option))) problems.push(`--${option} is never passed`);
  for (const [option, listed] of values)
    for (const value of listed)
      if (!tried((args) => valuePassed(args, option) === value))
        problems.push(`--${option} ${value} is never passed`);
  return problems;
}
