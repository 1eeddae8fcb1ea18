/**
 * Issue 27 (10): the data-directory lock checks more than the pid. A lock whose pid now belongs to
 * another process (started at another moment than the lock records: the pid was reused after a
 * kill -9 or a reboot) is stale and taken over; a lock whose pid is the very process it names
 * still refuses the start. The other process here is a real one (`sleep`), alive throughout.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { hostname } from 'node:os';
import { join } from 'node:path';
import { makeDataDir, removeDir, startTestService } from './harness.js';
import { processStart } from '../../src/server/store/data-dir/lock.js';

let other: ChildProcess;
const dirs: string[] = [];
beforeAll(() => {
  other = spawn('sleep', ['120'], { stdio: 'ignore' });
});
afterAll(async () => {
  other.kill('SIGKILL');
  for (const dir of dirs) await removeDir(dir);
});

async function lockedBy(record: Record<string, unknown>): Promise<string> {
  const dataDir = await makeDataDir();
  dirs.push(dataDir);
  await mkdir(dataDir, { recursive: true });
  await writeFile(join(dataDir, 'serve.lock'), JSON.stringify(record));
  return dataDir;
}

describe('the data-directory lock and reused pids', () => {
  it('records the process start time beside the pid', async () => {
    const svc = await startTestService();
    dirs.push(svc.dataDir);
    const lock = JSON.parse(await readFile(join(svc.dataDir, 'serve.lock'), 'utf8'));
    expect(lock.process_start).toBe(processStart(process.pid));
    expect(lock.process_start).toMatch(/^[0-9a-f-]+:\d+$/);
    await svc.stop();
  });

  it('a lock naming a live pid that started at another moment (a reused pid) is taken over with a warning', async () => {
    const reused = processStart(other.pid!)!.replace(/:\d+$/, ':1');
    const dataDir = await lockedBy({ pid: other.pid, host: hostname(), started_at: '2026-01-01T00:00:00.000Z', process_start: reused });
    const svc = await startTestService({ dataDir });
    expect(svc.logs.join('\n')).toContain('took over the stale lock of data directory');
    expect(svc.logs.join('\n')).toContain(`"previous_pid":${other.pid}`);
    expect(JSON.parse(await readFile(join(dataDir, 'serve.lock'), 'utf8')).pid).toBe(process.pid);
    await svc.stop();
  });

  it('a lock from before the last boot is stale, even if its pid runs now', async () => {
    const otherBoot = processStart(other.pid!)!.replace(/^[^:]+/, '00000000-0000-0000-0000-000000000000');
    const dataDir = await lockedBy({ pid: other.pid, host: hostname(), started_at: '2026-01-01T00:00:00.000Z', process_start: otherBoot });
    const svc = await startTestService({ dataDir });
    expect(svc.logs.join('\n')).toContain('took over the stale lock');
    await svc.stop();
  });

  it('a lock naming the live process it was written by still refuses the start (data_dir_in_use)', async () => {
    const dataDir = await lockedBy({
      pid: other.pid,
      host: hostname(),
      started_at: '2026-01-01T00:00:00.000Z',
      process_start: processStart(other.pid!),
    });
    await expect(startTestService({ dataDir })).rejects.toMatchObject({ code: 'data_dir_in_use' });
  });

  it('a lock written before start times were recorded is checked by its pid alone, as before', async () => {
    const dataDir = await lockedBy({ pid: other.pid, host: hostname(), started_at: '2026-01-01T00:00:00.000Z' });
    await expect(startTestService({ dataDir })).rejects.toMatchObject({ code: 'data_dir_in_use' });
  });
});
