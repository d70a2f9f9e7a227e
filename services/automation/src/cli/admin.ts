// `npm run admin -- workflows ...` dispatches here (node dist/cli/admin.js workflows ...).
import { runAdmin } from './run-admin';

runAdmin(process.argv.slice(2), process.env, {
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
}).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
