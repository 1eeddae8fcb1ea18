/** Which of several child processes holds the TCP connection from a local port (Linux /proc): who sent a request. */
import { readFile, readdir, readlink } from 'node:fs/promises';
import type { ChildProcess } from 'node:child_process';

/**
 * The process whose socket has `port` as its local port. A closed connection from the same port
 * lingers in the tables in TIME_WAIT with inode 0, and loopback may go over IPv6: so every line of
 * both tables with that port and an inode counts, and the look is repeated briefly while none matches.
 */
export async function ownerOfPort<T extends { child: ChildProcess }>(processes: T[], port: number, tries = 20): Promise<T | undefined> {
  for (let attempt = 0; attempt < tries; attempt++) {
    const owner = await ownerNow(processes, await inodesOfLocalPort(port));
    if (owner !== undefined) return owner;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return undefined;
}

async function inodesOfLocalPort(port: number): Promise<Set<string>> {
  const hexPort = `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
  const inodes = new Set<string>();
  for (const table of ['/proc/net/tcp', '/proc/net/tcp6']) {
    const lines = (await readFile(table, 'utf8').catch(() => '')).split('\n').slice(1);
    for (const fields of lines.map((line) => line.trim().split(/\s+/))) {
      if (fields[1]?.endsWith(hexPort) && fields[9] !== undefined && fields[9] !== '0') inodes.add(fields[9]);
    }
  }
  return inodes;
}

async function ownerNow<T extends { child: ChildProcess }>(processes: T[], inodes: Set<string>): Promise<T | undefined> {
  if (inodes.size === 0) return undefined;
  for (const candidate of processes) {
    const fds = await readdir(`/proc/${candidate.child.pid}/fd`).catch(() => []);
    const links = await Promise.all(fds.map((fd) => readlink(`/proc/${candidate.child.pid}/fd/${fd}`).catch(() => '')));
    if (links.some((link) => link.startsWith('socket:[') && inodes.has(link.slice('socket:['.length, -1)))) return candidate;
  }
  return undefined;
}
