// `npm run admin -- <group> <command> ...`: the operator CLI. Each service owns the commands on its
// own data (services share no tables), so this dispatches to that service's compiled CLI; the one
// cross-service command, `quickstart`, drives those CLIs in turn. Secrets the environment does not
// set come from the same local state file as `npm start`.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { localSecrets } from './local-secrets.mjs';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const owners = { accounts: 'gateway', users: 'gateway', keys: 'gateway', campaigns: 'campaigns', workflows: 'automation', contacts: 'contacts', webhooks: 'webhooks' };
/** Commands of a group whose data another service owns: a campaign's recipients are automation's send ledger. */
const commandOwners = { 'campaigns recipients': 'automation' };

const [group, ...rest] = process.argv.slice(2);
if (group === 'quickstart') {
  const { quickstart } = await import('./quickstart.mjs');
  process.exit(await quickstart(root, rest));
}
const service = commandOwners[`${group} ${rest[0]}`] ?? owners[group];
if (!service) {
  process.stderr.write(`usage: npm run admin -- <${[...Object.keys(owners), 'quickstart'].join('|')}> <command> [options]\n`);
  process.exit(2);
}
const cli = path.join(root, 'services', service, 'dist', 'cli', 'admin.js');
if (!existsSync(cli)) {
  process.stderr.write(`the ${service} CLI is not built: run npm run build\n`);
  process.exit(2);
}
const env = { ...process.env, ...localSecrets(root, process.env).values };
const result = spawnSync(process.execPath, [cli, group, ...rest], { stdio: 'inherit', env });
process.exit(result.status ?? 1);
