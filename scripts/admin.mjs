// `npm run admin -- <group> <command> ...`: the operator CLI. Each service owns the commands on its
// own data (services share no tables), so this only dispatches to that service's compiled CLI.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const owners = { accounts: 'gateway', users: 'gateway', keys: 'gateway', campaigns: 'campaigns', workflows: 'automation' };

const [group, ...rest] = process.argv.slice(2);
const service = owners[group];
if (!service) {
  process.stderr.write(`usage: npm run admin -- <${Object.keys(owners).join('|')}> <command> [options]\n`);
  process.exit(2);
}
const cli = path.join(root, 'services', service, 'dist', 'cli', 'admin.js');
if (!existsSync(cli)) {
  process.stderr.write(`the ${service} CLI is not built: run npm run build\n`);
  process.exit(2);
}
const result = spawnSync(process.execPath, [cli, group, ...rest], { stdio: 'inherit' });
process.exit(result.status ?? 1);
