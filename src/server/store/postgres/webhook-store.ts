/**
 * The webhook deliveries in PostgreSQL (`routeplan_webhooks`), shared by every process. A delivery
 * is leased, not held locked: the claim takes a due row that no unexpired lease holds (FOR UPDATE
 * SKIP LOCKED, so two processes claiming at once take two rows) and writes its holder and lease end
 * in one statement; the attempt then runs without a transaction open (a receiver may take seconds),
 * and its outcome is written only while the lease is still the holder's. A process killed
 * mid-attempt leaves its lease to run out, and another process takes the delivery then.
 */
import type { DeliverySettlement, StoredDelivery, WebhookStore } from '../ports.js';
import type { Database } from './database.js';

interface DeliveryRow {
  id: string;
  event_id: string;
  event_type: string;
  url: string;
  body: string;
  created_at: Date;
  attempts: number;
  next_attempt_at: Date;
  last_error: string | null;
}

const COLUMNS = 'id, event_id, event_type, url, body, created_at, attempts, next_attempt_at, last_error';

export class PgWebhookStore implements WebhookStore {
  constructor(private readonly db: Database) {}

  /** Nothing kept in memory: every read goes to the database. */
  recover(): Promise<void> {
    return Promise.resolve();
  }

  async add(deliveries: StoredDelivery[]): Promise<void> {
    if (deliveries.length === 0) return;
    await this.db.query(
      `INSERT INTO routeplan_webhooks (id, event_id, event_type, url, body, created_at, attempts, next_attempt_at)
       SELECT * FROM json_to_recordset($1::json) AS d(id text, event_id text, event_type text, url text, body text,
         created_at timestamptz, attempts integer, next_attempt_at timestamptz)
       ON CONFLICT (id) DO NOTHING`,
      [JSON.stringify(deliveries)],
    );
  }

  async claimDue(now: Date, holder: string, leaseMs: number): Promise<StoredDelivery | null> {
    const { rows } = await this.db.query<DeliveryRow>(
      `UPDATE routeplan_webhooks SET lease_holder = $2, lease_until = $1::timestamptz + $3 * interval '1 millisecond'
        WHERE id = (SELECT id FROM routeplan_webhooks
                     WHERE next_attempt_at <= $1 AND (lease_until IS NULL OR lease_until <= $1)
                     ORDER BY next_attempt_at, created_at LIMIT 1 FOR UPDATE SKIP LOCKED)
        RETURNING ${COLUMNS}`,
      [now.toISOString(), holder, leaseMs],
    );
    return rows[0] ? deliveryOf(rows[0]) : null;
  }

  async settle(delivery: StoredDelivery, holder: string, settlement: DeliverySettlement): Promise<boolean> {
    const { rowCount } =
      settlement === 'done'
        ? await this.db.query(`DELETE FROM routeplan_webhooks WHERE id = $1 AND lease_holder = $2`, [delivery.id, holder])
        : await this.db.query(
            `UPDATE routeplan_webhooks SET attempts = $3, next_attempt_at = $4, last_error = $5, lease_holder = NULL, lease_until = NULL
              WHERE id = $1 AND lease_holder = $2`,
            [delivery.id, holder, delivery.attempts, delivery.next_attempt_at, delivery.last_error ?? null],
          );
    return rowCount === 1;
  }

  async nextDue(): Promise<string | null> {
    const { rows } = await this.db.query<{ due: Date | null }>(`SELECT min(next_attempt_at) AS due FROM routeplan_webhooks`);
    return rows[0]?.due ? rows[0].due.toISOString() : null;
  }

  async pending(): Promise<StoredDelivery[]> {
    const { rows } = await this.db.query<DeliveryRow>(`SELECT ${COLUMNS} FROM routeplan_webhooks ORDER BY created_at, id`);
    return rows.map(deliveryOf);
  }
}

function deliveryOf(row: DeliveryRow): StoredDelivery {
  return {
    id: row.id,
    event_id: row.event_id,
    event_type: row.event_type,
    url: row.url,
    body: row.body,
    created_at: row.created_at.toISOString(),
    attempts: row.attempts,
    next_attempt_at: row.next_attempt_at.toISOString(),
    ...(row.last_error !== null ? { last_error: row.last_error } : {}),
  };
}
