/** Which of several child processes holds the TCP connection from a local port (Linux /proc): who sent a request. */
import { readFile, readdir, readlink } from 'node:fs/promises';
import type { ChildProcess } from 'node:child_process';

export async function ownerOfPort<T extends { child: ChildProcess }>(processes: T[], port: number): Promise<T | undefined> {
  const hexPort = port.toString(16).toUpperCase().padStart(4, '0');
  const table = (await readFile('/proc/net/tcp', 'utf8')).split('\n').slice(1);
  const inode = table.map((line) => line.trim().split(/\s+/)).find((fields) => fields[1]?.endsWith(`:${hexPort}`))?.[9];
  if (inode === undefined) return undefined;
  for (const candidate of processes) {
    const fds = await readdir(`/proc/${candidate.child.pid}/fd`);
    const links = await Promise.all(fds.map((fd) => readlink(`/proc/${candidate.child.pid}/fd/${fd}`).catch(() => '')));
    if (links.includes(`socket:[${inode}]`)) return candidate;
  }
  return undefined;
}
