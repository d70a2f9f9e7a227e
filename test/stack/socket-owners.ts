import { readdirSync, readFileSync, readlinkSync } from 'node:fs';
import path from 'node:path';

/** One TCP connection a process holds: its own port and the port at the other end. */
export interface Connection {
  localPort: number;
  remotePort: number;
}

/** The TCP connections of the machine by socket inode, read from /proc/net/tcp and tcp6 (Linux). */
function connectionsByInode(): Map<string, Connection> {
  const byInode = new Map<string, Connection>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    let text: string;
    try {
      text = readFileSync(table, 'utf8');
    } catch {
      continue;
    }
    for (const line of text.split('\n').slice(1)) {
      const fields = line.trim().split(/\s+/);
      const [local, remote, inode] = [fields[1], fields[2], fields[9]];
      if (!local || !remote || !inode || inode === '0') continue;
      const portOf = (address: string) => parseInt(address.slice(address.lastIndexOf(':') + 1), 16);
      byInode.set(inode, { localPort: portOf(local), remotePort: portOf(remote) });
    }
  }
  return byInode;
}

/** The TCP connections `pid` holds now (none when it has ended or is not ours to read). */
export function connectionsOf(pid: number, byInode = connectionsByInode()): Connection[] {
  let fds: string[];
  try {
    fds = readdirSync(`/proc/${pid}/fd`);
  } catch {
    return [];
  }
  return fds.flatMap((fd) => {
    try {
      const inode = /^socket:\[(\d+)\]$/.exec(readlinkSync(`/proc/${pid}/fd/${fd}`))?.[1];
      const connection = inode === undefined ? undefined : byInode.get(inode);
      return connection ? [connection] : [];
    } catch {
      return [];
    }
  });
}

/** Which service a process of `npm start` runs: the folder it was started in (services/NAME, tools/NAME). */
export function serviceOf(pid: number): string | undefined {
  try {
    return path.basename(readlinkSync(`/proc/${pid}/cwd`));
  } catch {
    return undefined;
  }
}

/** Every process's connections at one moment, by service name. */
export function connectionsByService(pids: readonly number[]): Map<string, Connection[]> {
  const byInode = connectionsByInode();
  const byService = new Map<string, Connection[]>();
  for (const pid of pids) {
    const service = serviceOf(pid);
    if (service === undefined) continue;
    byService.set(service, [...(byService.get(service) ?? []), ...connectionsOf(pid, byInode)]);
  }
  return byService;
}
