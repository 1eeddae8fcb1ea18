/**
 * The data directory's webhook deliveries (`webhooks/<delivery id>.json`): the one process that owns
 * the directory keeps them in memory too, and its leases only in memory (a process that dies takes
 * its leases with it, and the next start finds every delivery free).
 */
import type { DeliverySettlement, StoredDelivery, WebhookStore } from '../ports.js';
import type { JsonStore } from './json-store.js';

interface Lease {
  holder: string;
  untilMs: number;
}

export class DataDirWebhookStore implements WebhookStore {
  private readonly byId = new Map<string, StoredDelivery>();
  private readonly leases = new Map<string, Lease>();

  constructor(private readonly json: JsonStore) {}

  async recover(log: (event: Record<string, unknown>) => void): Promise<void> {
    const { records, unreadable } = await this.json.readAll<StoredDelivery>('webhooks');
    for (const bad of unreadable) log({ event: 'unreadable_record', file: bad.file, reason: bad.reason });
    for (const delivery of records) this.byId.set(delivery.id, delivery);
  }

  async add(deliveries: StoredDelivery[]): Promise<void> {
    for (const delivery of deliveries) {
      if (this.byId.has(delivery.id)) continue;
      if (await this.json.create('webhooks', delivery.id, delivery)) this.byId.set(delivery.id, delivery);
    }
  }

  claimDue(now: Date, holder: string, leaseMs: number): Promise<StoredDelivery | null> {
    const due = this.sorted().find((delivery) => Date.parse(delivery.next_attempt_at) <= now.getTime() && !this.leased(delivery.id, now));
    if (due === undefined) return Promise.resolve(null);
    this.leases.set(due.id, { holder, untilMs: now.getTime() + leaseMs });
    return Promise.resolve(structuredClone(due));
  }

  async settle(delivery: StoredDelivery, holder: string, settlement: DeliverySettlement): Promise<boolean> {
    if (this.leases.get(delivery.id)?.holder !== holder || !this.byId.has(delivery.id)) return false;
    try {
      if (settlement === 'done') {
        this.byId.delete(delivery.id);
        await this.json.remove('webhooks', delivery.id);
      } else {
        this.byId.set(delivery.id, delivery);
        await this.json.write('webhooks', delivery.id, delivery);
      }
    } finally {
      this.leases.delete(delivery.id);
    }
    return true;
  }

  nextDue(): Promise<string | null> {
    return Promise.resolve(this.sorted()[0]?.next_attempt_at ?? null);
  }

  pending(): Promise<StoredDelivery[]> {
    const deliveries = [...this.byId.values()].sort((a, b) => a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
    return Promise.resolve(deliveries.map((delivery) => structuredClone(delivery)));
  }

  private leased(id: string, now: Date): boolean {
    const lease = this.leases.get(id);
    return lease !== undefined && lease.untilMs > now.getTime();
  }

  /** By when each is due, then by age. */
  private sorted(): StoredDelivery[] {
    return [...this.byId.values()].sort(
      (a, b) => a.next_attempt_at.localeCompare(b.next_attempt_at) || a.created_at.localeCompare(b.created_at),
    );
  }
}
