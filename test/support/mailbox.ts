/** A real SMTP server on loopback (smtp-server) that keeps what it receives, parsed (mailparser), for tests. */
import { SMTPServer } from 'smtp-server';
import { simpleParser, type ParsedMail } from 'mailparser';
import type { AddressInfo } from 'node:net';

export interface Mailbox {
  url: string;
  port: number;
  received: ParsedMail[];
  /** Recipients answered with this SMTP reply code, each for as many attempts as given. */
  refuse(address: string, code: number, times: number): void;
  /** Recipients whose next `times` attempts get no answer at all (a send that hangs until its client goes away). */
  hold(address: string, times: number): void;
  /** The client ports of the sessions held so far, oldest first. */
  heldPorts: number[];
  /** Attempts per recipient, accepted or refused. */
  attempts: Map<string, number>;
  waitFor(count: number, timeoutMs?: number): Promise<void>;
  close(): Promise<void>;
}

export async function startMailbox(port = 0): Promise<Mailbox> {
  const received: ParsedMail[] = [];
  const refusals = new Map<string, { code: number; times: number }>();
  const attempts = new Map<string, number>();
  const holds = new Map<string, number>();
  const heldPorts: number[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onRcptTo(address, session, callback) {
      const to = address.address.toLowerCase();
      attempts.set(to, (attempts.get(to) ?? 0) + 1);
      if ((holds.get(to) ?? 0) > 0) {
        holds.set(to, holds.get(to)! - 1);
        heldPorts.push(session.remotePort);
        return;
      }
      const refusal = refusals.get(to);
      if (refusal && refusal.times > 0) {
        refusal.times--;
        // As real servers do ("550 5.1.1 <x@example.com>: Recipient address rejected"), the reply quotes the address.
        callback(Object.assign(new Error(`refused for the test (${refusal.code}): <${to}>`), { responseCode: refusal.code }));
        return;
      }
      callback();
    },
    onData(stream, _session, callback) {
      simpleParser(stream)
        .then((mail) => {
          received.push(mail);
          callback();
        })
        .catch(callback);
    },
  });
  await new Promise<void>((resolve) => server.listen(port, '127.0.0.1', resolve));
  const bound = (server.server.address() as AddressInfo).port;
  return {
    url: `smtp://127.0.0.1:${bound}`,
    port: bound,
    received,
    attempts,
    refuse: (address, code, times) => refusals.set(address.toLowerCase(), { code, times }),
    hold: (address, times) => holds.set(address.toLowerCase(), times),
    heldPorts,
    async waitFor(count, timeoutMs = 15_000) {
      const deadline = Date.now() + timeoutMs;
      while (received.length < count) {
        if (Date.now() > deadline) throw new Error(`expected ${count} messages, got ${received.length}`);
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
    },
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
