// Secrets for a stack run on this machine (`npm start`, `npm run admin`) when the environment sets
// none: generated once and kept in a state file outside git (mode 0600), so unsubscribe links, key
// flashes and anything else signed keep working across restarts. Compose and Kubernetes hand the
// services their secrets themselves (NAME_FILE or the variable); this file is only the local default.
import { randomBytes } from 'node:crypto';
import { chmodSync, linkSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** The secrets a local stack needs: the gateway → service identity key and the link-signing key. */
export const LOCAL_SECRET_NAMES = ['INTERNAL_SIGNING_SECRET', 'UNSUBSCRIBE_SECRET'];

/** Where the state lives: `MAILER_STATE_DIR`, or `.local/` at the repository root (git-ignored). */
export const stateFile = (root, env) => path.join(env.MAILER_STATE_DIR || path.join(root, '.local'), 'secrets.json');

function readState(file) {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8'));
    return parsed && typeof parsed === 'object' ? parsed : {};
  } catch (error) {
    if (error.code === 'ENOENT') return {};
    throw new Error(`cannot read the local secrets file ${file}: ${error.message}`, { cause: error });
  }
}

/**
 * The environment's secrets where set, else the state file's, generating (and saving) any missing
 * one. Returns the values to put in the children's environment and the file, if it was used.
 */
export function localSecrets(root, env) {
  const missing = LOCAL_SECRET_NAMES.filter((name) => !env[name] && !env[`${name}_FILE`]);
  if (missing.length === 0) return { values: {}, file: undefined, created: [] };
  const file = stateFile(root, env);
  let state = readState(file);
  const created = missing.filter((name) => typeof state[name] !== 'string' || state[name].length < 32);
  if (created.length > 0) {
    const fresh = !Object.keys(state).length;
    for (const name of created) state[name] = randomBytes(32).toString('hex');
    mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
    // Written aside, then moved in whole: a reader never sees half a file. A first file is linked
    // (fails if another start created it meanwhile: then that one's secrets are the ones kept).
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(state, null, 2)}\n`, { mode: 0o600 });
    try {
      if (fresh) linkSync(temporary, file);
      else renameSync(temporary, file);
    } catch (error) {
      if (error.code !== 'EEXIST') throw error;
      state = readState(file);
    } finally {
      rmSync(temporary, { force: true });
    }
  }
  chmodSync(file, 0o600);
  return { values: Object.fromEntries(missing.map((name) => [name, state[name]])), file, created };
}
